/**
 * JSON-RPC fuzzing over stdio against the real binary: 10,000 seeded hostile lines (see
 * test/support/fuzz-frames.ts), sent in batches, each batch followed by a valid request that
 * must be answered. Then: every request answered exactly once (by its id, or with id null when
 * it could not be read), nothing answered that is owed nothing, no internal error, the agent
 * alive and writing only JSON, exiting cleanly when its input ends, and a journal holding only
 * what accepted requests wrote. Replay a failure with VERBATIM_TEST_SEED=<the printed seed>.
 */
import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { FrameGenerator, type FuzzInput } from "../support/fuzz-frames.ts";
import { rng } from "../support/fuzz-values.ts";
import { owedFor } from "../support/jsonrpc-owed.ts";
import { idKey, initializedRawAgent, type RawAgent, type RawMessage } from "../support/raw-client.ts";
import { suiteSeed } from "../support/seeded.ts";
import { sandbox } from "../support/workspace.ts";

const SEED = suiteSeed(60_606);
const INPUTS = 10_000;
const BATCH = 200;
const LIMIT = 256 * 1024;

const box = sandbox("scripted/plain");
let agent: RawAgent;
let sessionId = "";
/** Responses owed per id key (`idKey(null)` counts the id-null errors too). */
const owed = new Map<string, number>();
/** The methods sent under each id key (several when ids repeat). */
const methodsById = new Map<string, string[]>();
const families = new Map<string, number>();
const sentinels: { key: string; answered: boolean }[] = [];
let exitCode: number | undefined;

const owe = (key: string) => owed.set(key, (owed.get(key) ?? 0) + 1);
const sentinelLine = (id: string) =>
  new TextEncoder().encode(`${JSON.stringify({ jsonrpc: "2.0", id, method: "session/list", params: {} })}\n`);

/** Every response that is not to a sentinel or to the test's own setup requests. */
const fuzzResponses = () =>
  agent.messages.filter(
    (m): m is RawMessage =>
      m.method === undefined &&
      "id" in m &&
      !String(m.id).startsWith("setup-") &&
      !String(m.id).startsWith("sentinel-"),
  );

beforeAll(async () => {
  console.log(`JSON-RPC fuzz: seed ${SEED} (replay with VERBATIM_TEST_SEED=${SEED}), ${INPUTS} inputs`);
  agent = await initializedRawAgent({ ...box.env, VERBATIM_MAX_MESSAGE_BYTES: String(LIMIT) });
  const created = await agent.request("session/new", { cwd: box.workspace, mcpServers: [] }, "setup-new");
  sessionId = (created.result as { sessionId: string }).sessionId;
  const generator = new FrameGenerator(rng(SEED), { sessionId, cwd: box.workspace, limit: LIMIT });
  for (let sent = 0; sent < INPUTS; sent += BATCH) {
    const batch: FuzzInput[] = [];
    for (let i = sent; i < Math.min(INPUTS, sent + BATCH); i++) batch.push(generator.next());
    for (const input of batch) {
      families.set(input.family, (families.get(input.family) ?? 0) + 1);
      const due = input.oversized ?? owedFor(input.bytes.subarray(0, input.bytes.length - 1));
      if (due.kind === "null") owe(idKey(null));
      if (due.kind === "id") {
        owe(idKey(due.id));
        methodsById.set(idKey(due.id), [...(methodsById.get(idKey(due.id)) ?? []), due.method]);
      }
    }
    const sentinel = `sentinel-${sent / BATCH}`;
    await agent.sendBytes(Buffer.concat([...batch.map((b) => b.bytes), sentinelLine(sentinel)]));
    await agent.response(sentinel, 30_000);
    sentinels.push({ key: sentinel, answered: true });
  }
  // Everything owed has arrived; a last valid request then flushes out anything owed twice.
  await agent.until(
    () => [...owed].every(([key, n]) => agent.responses(JSON.parse(key) as string | number | null).length >= n),
    "every owed response",
    60_000,
  );
  void agent.send(JSON.stringify({ jsonrpc: "2.0", id: "sentinel-last", method: "session/list", params: {} }));
  await agent.response("sentinel-last", 30_000);
  agent.endInput();
  exitCode = await Promise.race([agent.exited, Bun.sleep(30_000).then(() => undefined)]);
  console.log(`JSON-RPC fuzz: ${[...families].map(([f, n]) => `${f} ${n}`).join(", ")}`);
}, 240_000);

describe("JSON-RPC fuzz over stdio", () => {
  test("every request is answered exactly once with its id, and nothing owed nothing is answered", () => {
    const received = new Map<string, number>();
    for (const m of fuzzResponses()) received.set(idKey(m.id), (received.get(idKey(m.id)) ?? 0) + 1);
    const wrong: string[] = [];
    for (const key of new Set([...owed.keys(), ...received.keys()])) {
      if (key === idKey(null)) continue;
      if ((owed.get(key) ?? 0) !== (received.get(key) ?? 0))
        wrong.push(`${key.slice(0, 80)}: owed ${owed.get(key) ?? 0}, got ${received.get(key) ?? 0}`);
    }
    expect(wrong).toEqual([]);
  });

  test("each line that is not a readable request gets exactly one error with id null (and each request with id null its answer)", () => {
    expect(agent.responses(null).length).toBe(owed.get(idKey(null)) ?? 0);
  });

  test("a valid request after every batch of inputs was answered", () => {
    expect(sentinels).toHaveLength(INPUTS / BATCH);
    expect(agent.responses("sentinel-last")).toHaveLength(1);
  });

  test("no error is an internal error but a turn the model provider failed: every refusal names what was wrong", () => {
    const internal = fuzzResponses()
      .filter(
        (m) => m.error?.code === -32603 && (m.error.data as { reason?: unknown } | undefined)?.reason !== "turn_failed",
      )
      .map(
        (m) =>
          `${idKey(m.id)} ${methodsById.get(idKey(m.id))?.join("|")}: ${m.error?.message} ${JSON.stringify(m.error?.data)}`,
      );
    expect(internal).toEqual([]);
  });

  test("the agent wrote only JSON lines, and exited cleanly once its input ended", () => {
    expect(agent.garbled).toEqual([]);
    expect(exitCode).toBe(0);
  });

  test("no session exists but the test's own and those a session/new created", () => {
    const created = fuzzResponses()
      .map((m) => (m.result as { sessionId?: unknown } | undefined)?.sessionId)
      .filter((id): id is string => typeof id === "string");
    const db = new Database(join(box.home, "journal.db"), { readonly: true });
    try {
      const stored = db
        .query<{ session_id: string }, []>("SELECT session_id FROM sessions")
        .all()
        .map((r) => r.session_id);
      expect(stored.sort()).toEqual([sessionId, ...created].sort());
      const strays = db
        .query<{ n: number }, [string]>(
          "SELECT COUNT(*) AS n FROM facts WHERE session_id <> ? AND kind IN ('prompt_received', 'config_changed')",
        )
        .get(sessionId);
      expect(strays?.n).toBe(0);
    } finally {
      db.close();
    }
  });

  test("the test's session holds a prompt for each prompt accepted, and a config change for each change accepted", () => {
    // A prompt ran when its turn ends with a stop reason, or fails in the model provider (a model
    // chosen by name that the scripted provider does not have). One that answers `cancelled` may
    // instead have waited in line behind a turn until a cancel emptied the line: it never ran, and
    // nothing of it is recorded. So the cancelled ones bound the count from above only.
    const stopReasons = fuzzResponses().map((m) => (m.result as { stopReason?: unknown } | undefined)?.stopReason);
    const cancelled = stopReasons.filter((r) => r === "cancelled").length;
    const prompts =
      fuzzResponses().filter(
        (m) =>
          typeof (m.result as { stopReason?: unknown } | undefined)?.stopReason === "string" ||
          (m.error?.data as { reason?: unknown } | undefined)?.reason === "turn_failed",
      ).length - cancelled;
    const isChange = (method: string) => method === "session/set_mode" || method === "session/set_config_option";
    const accepted = fuzzResponses().filter((m) => m.result !== undefined);
    // Ids sent more than once leave which request succeeded open: they bound the count from above only.
    const changes = accepted.filter((m) => (methodsById.get(idKey(m.id)) ?? []).some(isChange)).length;
    const surelyChanges = accepted.filter((m) => {
      const methods = methodsById.get(idKey(m.id)) ?? [];
      return methods.length === 1 && isChange(methods[0] as string);
    }).length;
    const db = new Database(join(box.home, "journal.db"), { readonly: true });
    try {
      const count = (kind: string) =>
        db
          .query<{ n: number }, [string, string]>("SELECT COUNT(*) AS n FROM facts WHERE session_id = ? AND kind = ?")
          .get(sessionId, kind)?.n ?? 0;
      expect(count("prompt_received")).toBeGreaterThanOrEqual(prompts);
      expect(count("prompt_received")).toBeLessThanOrEqual(prompts + cancelled);
      expect(count("config_changed")).toBeLessThanOrEqual(changes);
      expect(count("config_changed")).toBeGreaterThanOrEqual(surelyChanges);
      console.log(
        `JSON-RPC fuzz: ${prompts} prompts accepted, ${count("config_changed")} config changes recorded (of ${changes} accepted)`,
      );
    } finally {
      db.close();
    }
  });
});
