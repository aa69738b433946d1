/**
 * The replay cache as the agent keeps and uses it: the live writer stores a row per finished
 * turn, a load writes valid rows as they are (and replays the facts past them, or where a row is
 * not valid), `verbatim verify` recomputes every row from the facts, and delete removes them.
 */
import { Database } from "bun:sqlite";
import { beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  checksumHolds,
  replayCacheChecksum,
  replayRowMac,
  sealedChecksum,
  storedChecksum,
  type ReplayCacheRow,
  type ReplayStatePart,
} from "../../src/journal/replay-cache.ts";
import { putPart, putRows, readParts, readRows } from "../../src/journal/sqlite-replay-cache.ts";
import { cacheKey } from "../../src/replay/cache-key.ts";
import { sealKeyFile } from "../../src/core/replay-cache/replay-seal.ts";
import { connectProcess, load, newSession, prompt, until } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { loadBytes } from "../support/load-bytes.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

let box: Sandbox;
let sessionId = "";
const db = () => new Database(join(box.home, "journal.db"));
const rows = (): ReplayCacheRow[] => {
  const d = db();
  try {
    return readRows(d, sessionId);
  } finally {
    d.close();
  }
};
const put = (r: ReplayCacheRow[]) => {
  const d = db();
  try {
    putRows(d, sessionId, r);
  } finally {
    d.close();
  }
};
// The fold is JSON text inside the head's JSON: its quotes are escaped there.
const PROMPTS_3 = '\\"prompts\\":3';
const PROMPTS_4 = '\\"prompts\\":4';
const KEY = cacheKey({ notices: false, compaction: false });
const parts = (): ReplayStatePart[] => {
  const d = db();
  try {
    return readParts(d, sessionId, KEY);
  } finally {
    d.close();
  }
};
const putState = (part: ReplayStatePart) => {
  const d = db();
  try {
    putPart(d, sessionId, KEY, part);
  } finally {
    d.close();
  }
};
/** A stored card of a call that has ended (the state's head does not list it as open). */
const settledCard = (): ReplayStatePart => {
  const all = parts();
  const { unsettled } = JSON.parse(all.find((p) => p.part === "head")!.body) as { unsettled: string[] };
  const card = all.find((p) => p.part.startsWith("card:") && !unsettled.includes(p.part.slice(5)));
  expect(card?.body).toContain('"status":"completed"');
  return card!;
};
/** Rewrites a stored fact's body, past the journal's append-only trigger (a damaged database). */
const damageFact = (seq: number, body: string) => {
  const d = db();
  try {
    d.run("DROP TRIGGER facts_no_update");
    d.run("UPDATE facts SET body = ? WHERE session_id = ? AND seq = ?", [body, sessionId, seq]);
  } finally {
    d.close();
  }
};
/**
 * Overwrites a stored fact's bytes in the database file, as damage on disk would, without SQL:
 * the schema stays as verbatim left it, so the damage is one verbatim cannot know of.
 */
const damageFactOnDisk = (seq: number, replacement: string) => {
  const d = db();
  const body = d
    .query<{ body: string }, [string, number]>("SELECT body FROM facts WHERE session_id = ? AND seq = ?")
    .get(sessionId, seq)!.body;
  d.close();
  const file = join(box.home, "journal.db");
  const bytes = readFileSync(file);
  const stored = Buffer.from(body);
  const damaged = Buffer.from(replacement.padEnd(stored.length, " "));
  let at = bytes.indexOf(stored);
  expect(at).toBeGreaterThanOrEqual(0);
  for (; at >= 0; at = bytes.indexOf(stored, at + 1)) damaged.copy(bytes, at);
  writeFileSync(file, bytes);
};
const factsOnly = () => loadBytes({ ...box.env, VERBATIM_REPLAY_CACHE: "off" }, sessionId, box.workspace);

beforeEach(async () => {
  box = sandbox("scripted/demo");
  const live = await connectProcess(box.env);
  try {
    sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
    for (const text of ["first", "second", "third"]) await prompt(live.ctx, sessionId, text);
    await until(() => rows().length === 3, "a cached row for each of the three turns");
  } finally {
    await live.close();
  }
});

describe("the replay cache", () => {
  test("holds a row per finished turn, the rows tiling the journal from record 1", () => {
    const cached = rows();
    expect(cached.map((r) => r.fromSeq)[0]).toBe(1);
    for (let i = 1; i < cached.length; i++) expect(cached[i]!.fromSeq).toBe(cached[i - 1]!.toSeq + 1);
    expect(cached.every(checksumHolds)).toBe(true);
  });

  test("a load writes the lines of a row this user's key sealed as they are", async () => {
    const [first, ...rest] = rows();
    const forged = {
      ...first!,
      lines: first!.lines.replace(
        '"sessionUpdate":"user_message_chunk"',
        '"sessionUpdate":"user_message_chunk","forged":true',
      ),
    };
    expect(forged.lines).not.toBe(first!.lines);
    const key = Buffer.from(readFileSync(sealKeyFile(box.env), "utf8").trim(), "hex");
    const seal = { keyId: storedChecksum(first!.checksum).seal!.keyId, mac: replayRowMac(key, sessionId, forged) };
    put([{ ...forged, checksum: sealedChecksum({ ...forged, checksum: replayCacheChecksum(forged) }, seal) }, ...rest]);
    expect(await loadBytes(box.env, sessionId, box.workspace)).toContain('"forged":true');
  });

  test("a load with the cache writes the same bytes as one from the facts alone", async () => {
    expect(await loadBytes(box.env, sessionId, box.workspace)).toBe(await factsOnly());
  });

  test("a row that fails its checksum is not used: that turn and those after it replay from the facts", async () => {
    const [first, ...rest] = rows();
    put([{ ...first!, lines: first!.lines.replace("user_message_chunk", "user_message_chunk_x") }, ...rest]);
    expect(await loadBytes(box.env, sessionId, box.workspace)).toBe(await factsOnly());
  });

  test("a client with other capabilities replays from the facts", async () => {
    const caps = { session: { notices: {} } };
    expect(await loadBytes(box.env, sessionId, box.workspace, caps)).toBe(
      await loadBytes({ ...box.env, VERBATIM_REPLAY_CACHE: "off" }, sessionId, box.workspace, caps),
    );
  });

  test("verbatim verify finds every row equal to the facts, and reports one that is not", async () => {
    const ok = await runCli(["verify", sessionId], box.env);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/3 cached turns and \d+ state parts checked, 0 differ/);
    const [first, ...rest] = rows();
    const forged = { ...first!, lines: first!.lines.replace("user_message_chunk", "user_message_chunk_x") };
    put([{ ...forged, checksum: replayCacheChecksum(forged) }, ...rest]);
    const bad = await runCli(["verify", sessionId], box.env);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`records 1-${first!.toSeq}`);
    expect(bad.stdout).toContain("its lines differ from a replay of the facts");
  });

  test("keeps the state after the last cached turn: its head names that turn's end", () => {
    const head = parts().find((p) => p.part === "head");
    expect(JSON.parse(head!.body).toSeq).toBe(rows().at(-1)!.toSeq);
  });

  test("a load with the state reads no fact of the cached turns; without the cache a damaged fact is a clear error", async () => {
    damageFactOnDisk(3, "{not json");
    const cached = await loadBytes(box.env, sessionId, box.workspace);
    expect(cached).toContain('"id":2,"result"');
    const facts = await factsOnly();
    expect(facts).toContain('"id":2,"error"');
    expect(facts).toContain("record 3");
  });

  test("a fact changed through SQL (its append-only trigger dropped) is known: the load replays the facts and refuses it, as show does", async () => {
    damageFact(3, "{not json");
    const cached = await loadBytes(box.env, sessionId, box.workspace);
    expect(cached).toContain('"id":2,"error"');
    expect(cached).toContain("record 3");
    const shown = await runCli(["show", sessionId], box.env);
    expect(shown.code).not.toBe(0);
    expect(shown.stderr).toContain("record 3");
  });

  test("the next writer to open a journal whose schema was changed behind its back drops the cache, and stores it again from the facts", async () => {
    // A row that says what the facts never did, kept from before the change.
    const [first, ...rest] = rows();
    const forged = { ...first!, lines: first!.lines.replace('"text":"first"', '"text":"forged"') };
    expect(forged.lines).not.toBe(first!.lines);
    put([{ ...forged, checksum: replayCacheChecksum(forged) }, ...rest]);
    const d = db();
    try {
      d.run("CREATE INDEX stranger ON facts (kind)");
    } finally {
      d.close();
    }
    expect(await loadBytes(box.env, sessionId, box.workspace)).toBe(await factsOnly());
    const live = await connectProcess(box.env);
    try {
      await load(live.ctx, sessionId, box.workspace);
      expect((await prompt(live.ctx, sessionId, "fourth")).stopReason).toBe("end_turn");
      await until(() => rows().length === 4, "the cache stored again, a row for each of the four turns");
    } finally {
      await live.close();
    }
    expect(await loadBytes(box.env, sessionId, box.workspace)).toBe(await factsOnly());
  });

  test("a state part that fails its checksum is not used: the load folds the facts, to the same bytes", async () => {
    const head = parts().find((p) => p.part === "head")!;
    const damaged = { ...head, body: head.body.replace(PROMPTS_3, PROMPTS_4) };
    expect(damaged.body).not.toBe(head.body);
    putState(damaged);
    expect(await loadBytes(box.env, sessionId, box.workspace)).toBe(await factsOnly());
    damageFact(3, "{not json");
    expect(await loadBytes(box.env, sessionId, box.workspace)).toContain('"id":2,"error"');
  });

  test("a load answers from the head and the open calls' cards alone: a settled card's damaged part leaves it on the cache", async () => {
    const before = await loadBytes(box.env, sessionId, box.workspace);
    const card = settledCard();
    putState({ ...card, body: card.body.replace('"status":"completed"', '"status":"failed"') });
    // With a fact of a cached turn damaged too, a load that went back to the facts would fail.
    damageFactOnDisk(3, "{not json");
    expect(await loadBytes(box.env, sessionId, box.workspace)).toBe(before);
  });

  test("a session reopened with a settled card's damaged part goes on as the facts do: its next turn is cached equal to them", async () => {
    const card = settledCard();
    putState({ ...card, body: card.body.replace('"status":"completed"', '"status":"failed"') });
    const live = await connectProcess(box.env);
    try {
      await load(live.ctx, sessionId, box.workspace);
      expect((await prompt(live.ctx, sessionId, "fourth")).stopReason).toBe("end_turn");
      await until(() => rows().length === 4, "a cached row for the fourth turn");
    } finally {
      await live.close();
    }
    expect(await loadBytes(box.env, sessionId, box.workspace)).toBe(await factsOnly());
    const verified = await runCli(["verify", sessionId], box.env);
    expect(verified.stdout).toContain("0 differ");
  });

  test("verbatim verify reports a state part that differs from the facts", async () => {
    const head = parts().find((p) => p.part === "head")!;
    const { statePartChecksum } = await import("../../src/journal/replay-cache.ts");
    const forged = { ...head, body: head.body.replace(PROMPTS_3, PROMPTS_4) };
    expect(forged.body).not.toBe(head.body);
    putState({ ...forged, checksum: statePartChecksum(KEY, forged) });
    const bad = await runCli(["verify", sessionId], box.env);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("state part head: differs from the facts");
  });

  test("a session reopened from its cache goes on: the next turn is cached from the stored state, equal to the facts", async () => {
    const live = await connectProcess(box.env);
    try {
      await load(live.ctx, sessionId, box.workspace);
      await prompt(live.ctx, sessionId, "fourth");
      await until(() => rows().length === 4, "a cached row for the fourth turn");
    } finally {
      await live.close();
    }
    const head = parts().find((p) => p.part === "head")!;
    expect(JSON.parse(head.body).toSeq).toBe(rows().at(-1)!.toSeq);
    expect(await loadBytes(box.env, sessionId, box.workspace)).toBe(await factsOnly());
    const verified = await runCli(["verify", sessionId], box.env);
    expect(verified.stdout).toContain("0 differ");
    expect(verified.code).toBe(0);
  });

  test("deleting the session removes its cache", async () => {
    expect((await runCli(["delete", sessionId], box.env)).code).toBe(0);
    expect(rows()).toEqual([]);
    expect(parts()).toEqual([]);
  });

  test("export leaves the cache out: only facts", async () => {
    const exported = await runCli(["export", sessionId], box.env);
    expect(exported.code).toBe(0);
    expect(exported.stdout).not.toContain('"jsonrpc"');
  });
});
