/**
 * What the engine's preload does once the engine is loaded, while the client has yet to send its
 * next request (agent-app.ts): the first parse of each session request the SDK checks, the
 * journal's reader and the reads a load makes, the replay seal's key, and last a garbage
 * collection. A first parse is dear (zod builds the schema, which the build leaves to its first
 * use, then compiles a parser for it: 1-5 ms for a load's request, measured); the parses here
 * build and compile exactly what the SDK's own parse of the request then uses. Each step takes a
 * turn of the event loop of its own, so a request that arrives meanwhile waits for one step at
 * most. Never writes, and sends nothing.
 */
// The SDK's own schema module (the one its request specs parse with): the same module, so the
// same schemas. Its exports map does not list it; the lazy-schema build step depends on it too.
import {
  zCancelNotification,
  zListSessionsRequest,
  zLoadSessionRequest,
  zNewSessionRequest,
  zPromptRequest,
  zResumeSessionRequest,
  zSetSessionConfigOptionRequest,
  zSetSessionModeRequest,
} from "../../node_modules/@agentclientprotocol/sdk/dist/v1/unstable/schema/zod.gen.js";

const ID = "ses_warm";
const CWD = "/";

/** The parse of each request a client sends first, of a value of its shape, likeliest first (each succeeds). */
export const FIRST_PARSES: readonly (() => { success: boolean })[] = [
  () => zLoadSessionRequest.safeParse({ sessionId: ID, cwd: CWD, mcpServers: [] }),
  () => zNewSessionRequest.safeParse({ cwd: CWD, mcpServers: [] }),
  () => zPromptRequest.safeParse({ sessionId: ID, prompt: [{ type: "text", text: "" }] }),
  () => zResumeSessionRequest.safeParse({ sessionId: ID, cwd: CWD }),
  () => zListSessionsRequest.safeParse({}),
  () => zCancelNotification.safeParse({ sessionId: ID }),
  () => zSetSessionModeRequest.safeParse({ sessionId: ID, modeId: "default" }),
  () => zSetSessionConfigOptionRequest.safeParse({ sessionId: ID, configId: "model", value: "default" }),
];

/**
 * A garbage collection, unless `asked()` says a request has come (it would wait for it). Loading
 * the engine and warming it allocate most of what the collector lets the process allocate before
 * it collects (7.5 MB, by JSC's log): left alone, the first request's own allocations start that
 * collection in the middle of it (10-12 ms of a 500-turn load from the cache, measured), where
 * now it runs while the client has not asked anything yet.
 */
export const collectUnlessAsked =
  (asked: () => boolean, collect: () => void = () => Bun.gc(true)) =>
  (): void => {
    if (!asked()) collect();
  };

/**
 * Runs `steps` one per turn of the event loop (after I/O already due), then each of the SDK's
 * first parses, then `last`; stops at once when `stopped()` says so (the connection closed). A
 * step that throws is skipped: warming is never worth a failure.
 */
export function warmUp(
  steps: readonly (() => unknown)[],
  stopped: () => boolean,
  last: readonly (() => unknown)[] = [],
): void {
  const queue = [...steps, ...FIRST_PARSES, ...last];
  const next = (): void => {
    const step = queue.shift();
    if (!step || stopped()) return;
    try {
      step();
    } catch {
      // Left for the request that needs it, which reports what is wrong.
    }
    setImmediate(next);
  };
  setImmediate(next);
}
