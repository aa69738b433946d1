/**
 * WAL checkpoints run when the writer has been idle (or after a long burst), on a worker thread,
 * never on the writing connection: a commit never waits for one (src/journal/wal-checkpointer.ts).
 * What is committed stays readable throughout.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { WAL_SIZE_LIMIT, type CheckpointPolicy } from "../../src/journal/wal-checkpointer.ts";
import { until } from "../support/acp-session.ts";
import { chunk, createSession } from "../support/journal.ts";
import { sandbox } from "../support/workspace.ts";

const size = (path: string) => statSync(path).size;
const NEVER = Number.POSITIVE_INFINITY;

function journal(checkpoints: Partial<CheckpointPolicy>) {
  const path = join(sandbox().home, "journal.db");
  const store = new SqliteJournal(path, "normal", { checkpoints });
  return { path, store, id: createSession(store) };
}

/** Appends `commits` groups of 16 chunks (about 6 WAL pages each); returns the last seq. */
function stream(store: SqliteJournal, id: string, commits: number, firstSeq = 2): number {
  let seq = firstSeq;
  const at = new Date().toISOString();
  for (let c = 0; c < commits; c++) {
    store.appendMany(
      id,
      seq,
      Array.from({ length: 16 }, (_, i) => ({ fact: chunk(`word ${seq + i} `), at })),
    );
    seq += 16;
  }
  return seq - 1;
}

const inOrder = (store: SqliteJournal, id: string, last: number) =>
  expect([...store.read(id)].map((r) => r.seq)).toEqual(Array.from({ length: last }, (_, i) => i + 1));

describe("WAL checkpoints", () => {
  test("the writing connection never checkpoints: without the checkpointer the WAL keeps every page committed", () => {
    const { path, store, id } = journal({ idlePages: NEVER, busyPages: NEVER });
    stream(store, id, 400);
    // SQLite's own policy would have copied the WAL into the database file after 1,000 pages.
    expect(size(`${path}-wal`)).toBeGreaterThan(1000 * 4096);
    expect(size(path)).toBeLessThan(200 * 1024);
    store.close();
  });

  test("once the writer is idle, a checkpoint copies what was committed into the database file", async () => {
    const { path, store, id } = journal({ idleMs: 20, idlePages: 50, busyPages: NEVER });
    const before = size(path);
    const last = stream(store, id, 100);
    expect(size(path)).toBe(before);
    await until(() => size(path) > before + 200 * 1024, "a checkpoint into the database file");
    inOrder(store, id, last);
    store.close();
  });

  test("a burst that never pauses is checkpointed once enough was committed, while it goes on", async () => {
    const { path, store, id } = journal({ idlePages: NEVER, busyPages: 200 });
    const before = size(path);
    let last = stream(store, id, 100);
    await until(() => size(path) > before + 100 * 1024, "a checkpoint into the database file");
    last = stream(store, id, 10, last + 1);
    inOrder(store, id, last);
    store.close();
  });

  test("a little written and then idle is not worth a checkpoint yet", async () => {
    const { path, store, id } = journal({ idleMs: 20, idlePages: 1000, busyPages: NEVER });
    const before = size(path);
    const last = stream(store, id, 20);
    await Bun.sleep(100);
    expect(size(path)).toBe(before);
    inOrder(store, id, last);
    store.close();
  });

  test("closing the journal folds the write-ahead log into the database file", () => {
    const { path, store, id } = journal({ idlePages: NEVER, busyPages: NEVER });
    const last = stream(store, id, 100);
    expect(size(`${path}-wal`)).toBeGreaterThan(100 * 4096);
    store.close();
    // The last connection to close checkpoints and removes the log: nothing kept it open.
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reader = new SqliteJournal(path);
    inOrder(reader, id, last);
    reader.close();
  });

  test("a log grown past its limit by a long stream is cut back once checkpointed and written again", async () => {
    const { path, store, id } = journal({ idleMs: 20, idlePages: 50, busyPages: NEVER });
    let last = 1;
    while (size(`${path}-wal`) <= WAL_SIZE_LIMIT) last = stream(store, id, 200, last + 1);
    const before = size(path);
    await until(() => size(path) > before, "a checkpoint into the database file");
    // A checkpoint under way when the stream ended may leave the last pages for the next one.
    await Bun.sleep(100);
    last = stream(store, id, 1, last + 1);
    expect(size(`${path}-wal`)).toBeLessThanOrEqual(WAL_SIZE_LIMIT);
    inOrder(store, id, last);
    store.close();
  });
});
