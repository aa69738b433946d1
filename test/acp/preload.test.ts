/**
 * Once `initialize` is answered, the stdio server loads the engine in the background and opens
 * the journal for reading (the first session method would wait for both). The answer is written
 * before any of it starts, nothing else is sent, and nothing is written to the journal.
 */
import { describe, expect, spyOn, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { serveStdio } from "../../src/acp/stdio.ts";
import { engineDeps } from "../../src/core/engine-deps.ts";
import { replaySeal, sealKeyFile } from "../../src/core/replay-cache/replay-seal.ts";
import { withChecksum } from "../../src/journal/replay-cache.ts";
import { readFileSync } from "node:fs";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { connectInProcess, newSession, prompt, until } from "../support/acp-session.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { fakeEnds } from "../support/fake-ends.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: 1, clientCapabilities: {} },
};

/** A journal that notes what the client had been sent when it was warmed. */
class WatchedJournal extends SqliteJournal {
  sentWhenWarmed: string | undefined;
  constructor(
    path: string,
    private readonly sent: () => string,
  ) {
    super(path);
  }
  override warm(): void {
    this.sentWhenWarmed = this.sent();
    super.warm();
  }
}

/** Serves fake stdio ends with the sandbox's engine, its journal watched. */
function serve(box: Sandbox) {
  const ends = fakeEnds();
  const store = new WatchedJournal(join(box.home, "journal.db"), () => ends.output.text);
  const served = serveStdio({ deps: { ...engineDeps(box.env), store }, ends });
  return { ends, store, served };
}

async function recordedSession(box: Sandbox): Promise<void> {
  const live = await connectInProcess(box.env);
  const { sessionId } = await newSession(live.ctx, box.workspace);
  await prompt(live.ctx, sessionId, "Hello");
  await live.close();
}

describe("preloading the engine after initialize", () => {
  test("the journal is opened for reading only after the initialize answer was written, and nothing else is sent", async () => {
    const box = sandbox("scripted/plain");
    await recordedSession(box);
    const { ends, store, served } = serve(box);
    ends.send(INITIALIZE);
    await until(() => store.sentWhenWarmed !== undefined, "the preload");
    const [answer, ...rest] = ends.output.messages();
    expect(answer?.id).toBe(0);
    expect(answer?.result).toBeDefined();
    expect(rest).toEqual([]);
    expect(store.sentWhenWarmed).toBe(ends.output.text);
    ends.end();
    await served;
  });

  test("the preload waits until the pipe has taken the answer", async () => {
    const box = sandbox("scripted/plain");
    const { ends, store, served } = serve(box);
    ends.output.holdNextFlush();
    ends.send(INITIALIZE);
    await until(() => ends.output.messages().length === 1, "the answer");
    await Bun.sleep(50);
    expect(store.sentWhenWarmed).toBeUndefined();
    ends.output.release();
    await until(() => store.sentWhenWarmed !== undefined, "the preload");
    ends.end();
    await served;
  });

  test("the preload writes nothing to the journal", async () => {
    const box = sandbox("scripted/plain");
    await recordedSession(box);
    const path = join(box.home, "journal.db");
    const before = dumpDatabase(path);
    const { ends, store, served } = serve(box);
    ends.send(INITIALIZE);
    await until(() => store.sentWhenWarmed !== undefined, "the preload");
    expect(store.writing).toBe(false);
    ends.end();
    await served;
    expect(dumpDatabase(path)).toEqual(before);
  });

  test("without a journal, the preload creates none", async () => {
    const box = sandbox("scripted/plain");
    const { ends, store, served } = serve(box);
    ends.send(INITIALIZE);
    await until(() => store.sentWhenWarmed !== undefined, "the preload");
    ends.end();
    await served;
    expect(existsSync(join(box.home, "journal.db"))).toBe(false);
  });

  test("the preload reads the replay seal's key, and creates none", async () => {
    const box = sandbox("scripted/plain");
    const seal = replaySeal(box.env);
    let warmed = false;
    const ends = fakeEnds();
    const warm = () => {
      warmed = true;
      seal.warm();
    };
    const deps = { ...engineDeps(box.env), replaySeal: { ...seal, warm } };
    const served = serveStdio({ deps, ends });
    ends.send(INITIALIZE);
    await until(() => warmed, "the seal's warm-up");
    ends.end();
    await served;
    expect(existsSync(sealKeyFile(box.env))).toBe(false);
  });

  test("warming the seal leaves what it judges as it was", () => {
    const box = sandbox("scripted/plain");
    const seal = replaySeal(box.env);
    const row = seal.seal("ses_1", withChecksum({ version: 1, capabilities: "", fromSeq: 1, toSeq: 2, lines: "{}\n" }));
    const key = readFileSync(sealKeyFile(box.env), "utf8");
    seal.warm();
    expect(seal.verdict("ses_1", row)).toBe("sealed");
    expect(seal.verdict("ses_1", { ...row, lines: "{} \n" })).toBe("broken");
    expect(readFileSync(sealKeyFile(box.env), "utf8")).toBe(key);
  });

  test("with nothing asked since initialize, the warm-up ends with a garbage collection", async () => {
    const box = sandbox("scripted/plain");
    const gc = spyOn(Bun, "gc");
    try {
      const { ends, store, served } = serve(box);
      ends.send(INITIALIZE);
      await until(() => store.sentWhenWarmed !== undefined, "the preload");
      await until(() => gc.mock.calls.length > 0, "the collection");
      expect(gc.mock.calls).toEqual([[true]]);
      ends.end();
      await served;
    } finally {
      gc.mockRestore();
    }
  });

  test("a request sent right after initialize is not held up by the warm-up's collection", async () => {
    const box = sandbox("scripted/plain");
    const gc = spyOn(Bun, "gc");
    try {
      const { ends, served } = serve(box);
      ends.send(INITIALIZE);
      ends.send({ jsonrpc: "2.0", id: 1, method: "session/list", params: {} });
      await until(() => ends.output.messages().some((m) => m.id === 1), "the list");
      // Long enough for every warm-up step to have run.
      await Bun.sleep(200);
      expect(gc).not.toHaveBeenCalled();
      ends.end();
      await served;
    } finally {
      gc.mockRestore();
    }
  });
});
