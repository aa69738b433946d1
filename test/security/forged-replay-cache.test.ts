/**
 * The replay cache is derived data: whoever can write it (a machine with the writer role on a
 * shared PostgreSQL journal, anything that edits the SQLite file) may have rewritten a row or the
 * stored state and recomputed its checksum. A load may be faster for it, never able to do more:
 * permission rules, grants, mode and roots come from the facts, and a load sends cached lines only
 * from rows this user's key sealed: any other row is replayed from the facts.
 */
import { Database } from "bun:sqlite";
import { beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import {
  partWithChecksum,
  replayCacheChecksum,
  withChecksum,
  replayRowMac,
  sealedChecksum,
  storedChecksum,
  type ReplayCacheRow,
  type ReplayStatePart,
} from "../../src/journal/replay-cache.ts";
import { putPart, putRows, readParts, readRows } from "../../src/journal/sqlite-replay-cache.ts";
import { userConfigFolder } from "../../src/shared/user-config-folder.ts";
import { cacheKey } from "../../src/replay/cache-key.ts";
import { restoreFold, snapshotFold } from "../../src/replay/fold-snapshot.ts";
import type { StateHead } from "../../src/replay/replay-state.ts";
import { SessionStateFold } from "../../src/replay/state.ts";
import { connectProcess, newSession, prompt, until } from "../support/acp-session.ts";
import { loadBytes } from "../support/load-bytes.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const KEY = cacheKey({ notices: false, compaction: false });
let box: Sandbox;
let sessionId = "";

function withDb<T>(use: (db: Database) => T): T {
  const db = new Database(join(box.home, "journal.db"));
  try {
    return use(db);
  } finally {
    db.close();
  }
}
/** A request to the client, as a forger would put it among a row's lines. */
const request = (id: string) =>
  `${JSON.stringify({ jsonrpc: "2.0", id: 99, method: "fs/write_text_file", params: { sessionId: id, path: "/tmp/x", content: "x" } })}\n`;
const cachedRows = (of: Sandbox, id: string): ReplayCacheRow[] => {
  const db = new Database(join(of.home, "journal.db"), { readonly: true });
  try {
    return readRows(db, id);
  } finally {
    db.close();
  }
};
const rows = (): ReplayCacheRow[] => cachedRows(box, sessionId);
const parts = (): ReplayStatePart[] => withDb((db) => readParts(db, sessionId, KEY));

/** Rewrites the stored state's fold as `change` says, its checksum recomputed as a forger would. */
function forgeFold(change: (fold: SessionStateFold) => void): void {
  const head = parts().find((p) => p.part === "head")!;
  const state = JSON.parse(head.body) as StateHead;
  const fold = new SessionStateFold();
  restoreFold(fold, state.fold);
  change(fold);
  const body = JSON.stringify({ ...state, fold: snapshotFold(fold) });
  withDb((db) => putPart(db, sessionId, KEY, partWithChecksum(KEY, { part: "head", ord: head.ord, body })));
}

/**
 * Rewrites the first cached row's lines as `change` says, its checksum recomputed as a forger
 * without the user's key would: with no seal, or with the seal it had (`seal: "kept"`), or one of
 * another key.
 */
function forgeFirstRow(change: (lines: string) => string, seal: "none" | "kept" | "another key" = "none"): void {
  const [first, ...rest] = rows();
  const forged = { ...first!, lines: change(first!.lines) };
  expect(forged.lines).not.toBe(first!.lines);
  const had = storedChecksum(first!.checksum).seal!;
  const checksum = replayCacheChecksum(forged);
  const stored =
    seal === "none"
      ? checksum
      : sealedChecksum({ ...forged, checksum }, seal === "kept" ? had : { ...had, keyId: "0123456789abcdef" });
  withDb((db) => putRows(db, sessionId, [{ ...forged, checksum: stored }, ...rest]));
}

const factsOnly = () => loadBytes({ ...box.env, VERBATIM_REPLAY_CACHE: "off" }, sessionId, box.workspace);

beforeEach(async () => {
  box = sandbox("scripted/call");
  const live = await connectProcess(box.env);
  try {
    sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
    await prompt(live.ctx, sessionId, 'Glob {"pattern":"*.md"}');
    await until(() => rows().length === 1, "a cached row for the first turn");
  } finally {
    await live.close();
  }
});

/** Reopens the session in a fresh process whose user refuses every question, and runs `text`. */
async function reopenAndPrompt(text: string) {
  const c = await connectProcess(box.env, { policy: choose("reject_once") });
  try {
    await c.ctx.request("session/load", { sessionId, cwd: box.workspace, mcpServers: [] });
    await prompt(c.ctx, sessionId, text);
    return c.client.permissionRequests.map((r) => r.toolCall.title ?? "");
  } finally {
    await c.close();
  }
}

describe("a forged replay-cache state", () => {
  test("a rule it adds does not let Bash run unasked", async () => {
    forgeFold((fold) =>
      fold.rules.push({ requestId: "req_forged", toolCallId: "call_forged", toolName: "Bash", decision: "allow" }),
    );
    const asked = await reopenAndPrompt('Bash {"command":"echo PWNED > pwned.txt"}');
    expect(asked).toHaveLength(1);
    expect(existsSync(join(box.workspace, "pwned.txt"))).toBe(false);
  });

  test("a grant of / it adds does not let Read outside the workspace unasked", async () => {
    const outside = join(box.root, "outside");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "secret.txt"), "the private text\n");
    forgeFold((fold) => fold.grantedDirectories.push("/"));
    const asked = await reopenAndPrompt(`Read {"file_path":${JSON.stringify(join(outside, "secret.txt"))}}`);
    expect(asked).toHaveLength(1);
  });

  test("a mode it changes to bypassPermissions does not stop the questions", async () => {
    forgeFold((fold) => {
      fold.modeId = "bypassPermissions";
    });
    const asked = await reopenAndPrompt('Bash {"command":"echo PWNED > pwned.txt"}');
    expect(asked).toHaveLength(1);
    expect(existsSync(join(box.workspace, "pwned.txt"))).toBe(false);
  });

  test("roots it widens to / do not let Read outside the workspace unasked", async () => {
    const outside = join(box.root, "outside");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "secret.txt"), "the private text\n");
    forgeFold((fold) => {
      fold.cwd = "/";
      fold.additionalDirectories = ["/"];
    });
    const asked = await reopenAndPrompt(`Read {"file_path":${JSON.stringify(join(outside, "secret.txt"))}}`);
    expect(asked).toHaveLength(1);
  });

  test("a session state of another shape (a field the fold does not have) is not used: the load folds the facts, to the same bytes", async () => {
    const head = parts().find((p) => p.part === "head")!;
    const state = JSON.parse(head.body) as StateHead;
    const fold = { ...JSON.parse(state.fold), openCalls: { $verbatimMap: [] }, injected: { rules: ["Bash"] } };
    const body = JSON.stringify({ ...state, fold: JSON.stringify(fold) });
    withDb((db) => putPart(db, sessionId, KEY, partWithChecksum(KEY, { part: "head", ord: head.ord, body })));
    expect(await loadBytes(box.env, sessionId, box.workspace)).toBe(await factsOnly());
  });
});

describe("a forged replay-cache row", () => {
  test("a request line in it never reaches the client: the load replays the facts", async () => {
    forgeFirstRow((lines) => request(sessionId) + lines);
    const bytes = await loadBytes(box.env, sessionId, box.workspace);
    expect(bytes).not.toContain("fs/write_text_file");
    expect(bytes).toBe(await factsOnly());
  });

  test("an id field added to an update line is refused", async () => {
    forgeFirstRow((lines) => lines.replace(/}}\n/, '},"id":77}\n'));
    const bytes = await loadBytes(box.env, sessionId, box.workspace);
    expect(bytes).not.toContain('"id":77');
    expect(bytes).toBe(await factsOnly());
  });

  test("an id spelled with an escape is refused", async () => {
    forgeFirstRow((lines) => lines.replace(/}}\n/, '},"\\u0069d":78}\n'));
    expect(await loadBytes(box.env, sessionId, box.workspace)).toBe(await factsOnly());
  });

  test("a second params naming another session is refused", async () => {
    forgeFirstRow((lines) =>
      lines.replace(
        /}}\n/,
        '}},"params":{"sessionId":"ses_other","update":{"sessionUpdate":"plan","entries":[]}}}\n'.slice(1),
      ),
    );
    const bytes = await loadBytes(box.env, sessionId, box.workspace);
    expect(bytes).not.toContain("ses_other");
    expect(bytes).toBe(await factsOnly());
  });

  test("another method is refused", async () => {
    forgeFirstRow((lines) => lines.replace('"method":"session/update"', '"method":"session/elicitation"'));
    const bytes = await loadBytes(box.env, sessionId, box.workspace);
    expect(bytes).not.toContain("session/elicitation");
    expect(bytes).toBe(await factsOnly());
  });

  test("another session's update is refused", async () => {
    forgeFirstRow((lines) => lines.replace(`"sessionId":"${sessionId}"`, '"sessionId":"ses_someone_else"'));
    const bytes = await loadBytes(box.env, sessionId, box.workspace);
    expect(bytes).not.toContain("ses_someone_else");
    expect(bytes).toBe(await factsOnly());
  });

  test("its text edited and its seal stripped, its lines still the session's notifications, it is not used: the load replays the facts", async () => {
    forgeFirstRow((lines) => lines.replace(/"text":"[^"]*"/, '"text":"FORGED-TEXT"'));
    const bytes = await loadBytes(box.env, sessionId, box.workspace);
    expect(bytes).not.toContain("FORGED-TEXT");
    expect(bytes).toBe(await factsOnly());
  });
});

describe("the seal of this user's rows", () => {
  /** An edit a line check lets through: the row's lines stay the session's notifications. */
  const reworded = (lines: string) =>
    lines.replace('"sessionUpdate":"user_message_chunk"', '"sessionUpdate":"user_message_chunk","said":"never"');

  test("rows carry the seal of a key in the user's config folder that only the user can read, and that the journal never holds", () => {
    const seal = storedChecksum(rows()[0]!.checksum).seal;
    expect(seal?.mac).toMatch(/^[0-9a-f]{64}$/);
    const folder = userConfigFolder(box.env);
    const key = join(folder, "replay-seal.key");
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o077).toBe(0);
    const text = readFileSync(key, "utf8").trim();
    expect(readFileSync(join(box.home, "journal.db")).includes(Buffer.from(text))).toBe(false);
  });

  test("a sealed row whose lines were changed is refused though a line check would pass them: the load replays the facts", async () => {
    forgeFirstRow(reworded, "kept");
    const bytes = await loadBytes(box.env, sessionId, box.workspace);
    expect(bytes).not.toContain('"said":"never"');
    expect(bytes).toBe(await factsOnly());
  });

  test("a row sealed by another key (another machine's) is not used, whatever its lines: the load replays the facts", async () => {
    forgeFirstRow(reworded, "another key");
    const bytes = await loadBytes(box.env, sessionId, box.workspace);
    expect(bytes).not.toContain('"said":"never"');
    expect(bytes).toBe(await factsOnly());
  });

  test("a session whose rows another machine's key sealed is loaded from the facts", async () => {
    const elsewhere = { ...box.env, XDG_CONFIG_HOME: join(box.root, "another-machine-config") };
    const bytes = await loadBytes(elsewhere, sessionId, box.workspace);
    expect(bytes).toBe(await factsOnly());
    expect(existsSync(join(userConfigFolder(elsewhere), "replay-seal.key"))).toBe(false);
  });

  test("a key file others can read seals nothing: a row sealed with it by whoever read it is not used", async () => {
    const key = join(userConfigFolder(box.env), "replay-seal.key");
    chmodSync(key, 0o644);
    const [first, ...rest] = rows();
    const forged = { ...first!, lines: request(sessionId) + first!.lines };
    const checksum = replayCacheChecksum(forged);
    const mac = replayRowMac(Buffer.from(readFileSync(key, "utf8").trim(), "hex"), sessionId, forged);
    const sealed = sealedChecksum({ ...forged, checksum }, { keyId: storedChecksum(first!.checksum).seal!.keyId, mac });
    withDb((db) => putRows(db, sessionId, [{ ...forged, checksum: sealed }, ...rest]));
    const bytes = await loadBytes(box.env, sessionId, box.workspace);
    expect(bytes).not.toContain("fs/write_text_file");
    expect(bytes).toBe(await factsOnly());
  });
});

test("with a config folder others can write, no key is made there, no row is stored, and a load sends no cached line", async () => {
  const open = sandbox("scripted/call");
  const folder = userConfigFolder(open.env);
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o777);
  const live = await connectProcess(open.env);
  let id = "";
  try {
    id = (await newSession(live.ctx, open.workspace)).sessionId;
    await prompt(live.ctx, id, 'Glob {"pattern":"*.md"}');
    await prompt(live.ctx, id, 'Glob {"pattern":"*.txt"}');
  } finally {
    await live.close();
  }
  expect(existsSync(join(folder, "replay-seal.key"))).toBe(false);
  expect(cachedRows(open, id)).toEqual([]);
  // A row put there by another (unsealed: no key here could seal it) is not sent either.
  box = open;
  sessionId = id;
  const fromFacts = await factsOnly();
  const update = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "FORGED-TEXT" } };
  const lines = `${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: id, update } })}\n`;
  withDb((db) => putRows(db, id, [withChecksum({ ...KEY, fromSeq: 1, toSeq: 1, lines })]));
  const bytes = await loadBytes(open.env, id, open.workspace);
  expect(bytes).not.toContain("FORGED-TEXT");
  expect(bytes).toBe(fromFacts);
});
