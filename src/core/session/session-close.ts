/** A session's close, step by step: each step runs even when an earlier one failed. */
import { log } from "../../shared/log.ts";
import type { BackgroundJobs } from "./session-background.ts";
import type { JournalWriter } from "./journal-writer.ts";
import type { SessionHooks } from "../hooks/session-hooks.ts";
import type { SessionTooling } from "./session-tooling.ts";

/** What a session holds that its close ends. */
export type ClosingParts = {
  jobs: BackgroundJobs;
  writer: JournalWriter;
  hooks: SessionHooks | undefined;
  tooling: SessionTooling;
};

/**
 * Ends a session's parts in order: its background jobs, what it streamed and could not journal
 * yet (one more try), its SessionEnd hooks, its MCP servers, its lease. Never throws.
 */
export function closeParts(sessionId: string, parts: ClosingParts): Promise<void> {
  return closeInSteps(sessionId, [
    ["stopping the background jobs", () => parts.jobs.close()],
    [
      "journaling streamed text",
      () => {
        // One more try for what was shown while the journal could not be reached.
        parts.writer.reconnect();
        return parts.writer.flush();
      },
    ],
    ["the SessionEnd hooks", () => parts.hooks?.close()],
    ["closing the MCP servers", () => parts.tooling.close()],
    ["releasing the session's lease", () => parts.writer.release()],
  ]);
}

/**
 * Runs each step in order, `what` naming it; a step that fails (a full disk fails every write) is
 * logged and the next runs. Never throws.
 */
export async function closeInSteps(sessionId: string, steps: [what: string, run: () => unknown][]): Promise<void> {
  for (const [what, run] of steps) {
    try {
      await run();
    } catch (error) {
      log.warn(
        `session ${sessionId}: ${what} failed at close: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
