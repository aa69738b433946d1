/**
 * A session's restore is the engine's, below the wire: a load replays through the sink it is
 * given (the port the wire implements), and knows no protocol. The sink gets what a replay of the
 * session's facts shows, in order, then the end of the replay once; a sink that stops a cancelled
 * load stops it before the replay ends; without a sink nothing is replayed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineDeps } from "../../src/core/engine-deps.ts";
import type { ProjectedUpdate, ReplaySink } from "../../src/core/session/replay-sink.ts";
import { restoreSession } from "../../src/core/session/restore-session.ts";
import { SessionRuntime, type EngineDeps, type SessionIo } from "../../src/core/session/session-runtime.ts";
import { readAll } from "../../src/journal/store.ts";
import type { ReplayCapabilities } from "../../src/replay/cache-key.ts";
import { Projector } from "../../src/replay/project.ts";
import { replayAll } from "../../src/replay/replay-pipeline.ts";
import { sandbox } from "../support/workspace.ts";

const CAPS: ReplayCapabilities = { notices: false, compaction: false };
const quietIo = (): SessionIo => ({ host: {}, publish: () => undefined });

/** A sink that keeps what it is handed, in order; asked `cancelAt` times, it stops the load (cancelled). */
function recordingSink(cancelAt = Number.POSITIVE_INFINITY) {
  const handed: (ProjectedUpdate | "end")[] = [];
  let asked = 0;
  const sink: ReplaySink = {
    lines: () => undefined,
    update: (update) => {
      handed.push(update);
    },
    pressure: () => undefined,
    stopIfCancelled: () => {
      if (++asked >= cancelAt) throw new Error("cancelled");
    },
    end: async () => {
      handed.push("end");
    },
  };
  return { sink, handed };
}

let deps: EngineDeps;
let sessionId = "";
let workspace = "";

beforeAll(async () => {
  const box = sandbox("scripted/demo");
  deps = engineDeps(box.env);
  workspace = box.workspace;
  const runtime = await SessionRuntime.create(deps, quietIo, { cwd: box.workspace, additionalDirectories: [] });
  await runtime.prompt([{ type: "text", text: "Overview" }]);
  sessionId = runtime.sessionId;
  await runtime.close();
});

afterAll(() => deps.store.close());

const restore = (replay?: ReplaySink) =>
  restoreSession(deps, { sessionId, capabilities: CAPS, cache: undefined, mcpServers: [], io: quietIo, replay });

describe("restoring a session below the wire", () => {
  test("a load hands its sink what a replay of the facts shows, in order, then ends the replay once", async () => {
    const expected = replayAll(
      new Projector({ ...CAPS, replay: true, sessionId }),
      await readAll(deps.store, sessionId),
      true,
    );
    const { sink, handed } = recordingSink();
    const restored = await restore(sink);
    await restored?.runtime.close();
    expect(expected.length).toBeGreaterThan(5);
    expect(handed).toEqual([...expected, "end"]);
    expect(restored?.projector.context.replay).toBe(false);
  });

  test("a sink that stops a cancelled load stops it between records: its error, and no end", async () => {
    const { sink, handed } = recordingSink(3);
    await expect(restore(sink)).rejects.toThrow("cancelled");
    expect(handed).not.toContain("end");
  });

  test("without a sink (a resume, a fork), the session is restored from its facts all the same", async () => {
    const restored = await restore();
    await restored?.runtime.close();
    expect(restored?.runtime.sessionId).toBe(sessionId);
    expect(restored?.runtime.state.cwd).toBe(workspace);
    expect(restored?.projector.context).toEqual({ ...CAPS, replay: false, sessionId });
  });

  test("a session the journal does not hold is not restored (the wire says how it answers)", async () => {
    expect(
      await restoreSession(deps, {
        sessionId: "ses_unknown",
        capabilities: CAPS,
        cache: undefined,
        mcpServers: [],
        io: quietIo,
      }),
    ).toBeUndefined();
  });
});
