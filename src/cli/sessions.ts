/** `verbatim sessions`, `show`, `fork` and `delete`: the journal from the command line. */
import { isAbsolute, resolve } from "node:path";
import { engineDeps } from "../core/engine-deps.ts";
import { isValidSessionId } from "../core/ids.ts";
import type { EngineDeps } from "../core/session/session-types.ts";
import { deleteStoredSession } from "../core/session/stored-sessions.ts";
import { drawingSink } from "../core/session/replay-sink.ts";
import { readStoredSession } from "../core/session/stored-replay.ts";
import type { StoredFact } from "../journal/facts/index.ts";
import { defined } from "../shared/defined.ts";
import type { FactStore, LeaseHolder, LeaseStore } from "../journal/store.ts";
import { listForCwd, type ListedSession } from "../core/session/list-here.ts";
import { Projector } from "../replay/project.ts";
import { SessionStateFold } from "../replay/state.ts";
import { quoted, standingSection } from "../view/standing-permissions.ts";
import { TranscriptRecorder } from "../view/transcript.ts";
import type { Piece } from "../view/transcript-lines.ts";
import { colourOn } from "./terminal/ansi.ts";
import { Painter } from "./terminal/painter.ts";
import { EngineError } from "../core/errors.ts";
import { forkSession } from "../core/session/fork.ts";
import { reportError } from "./cli-error.ts";
import { standingOf } from "./session-standing.ts";
import { checkJournalPlace } from "./journal-access.ts";
import { sessionTable } from "./session-listing.ts";
import { byteSize } from "./byte-size.ts";
import { visible } from "../view/visible-text.ts";

const out = (line = "") => process.stdout.write(`${line}\n`);

export async function listSessions(args: { cwd?: string; json?: boolean }): Promise<number> {
  const cwd = args.cwd ? (isAbsolute(args.cwd) ? args.cwd : resolve(args.cwd)) : undefined;
  let journal: string | undefined;
  let rows: ListedSession[];
  let table = "";
  let running: (LeaseHolder | undefined)[] = [];
  let bytes: number[] = [];
  let journalBytes = 0;
  try {
    journal = checkJournalPlace(process.env, { write: false });
    const { store } = engineDeps();
    try {
      rows = cwd
        ? (await listForCwd(store, cwd, { limit: 1000 })).rows
        : (await store.list({ limit: 1000 })).map((row): ListedSession => ({ ...row, group: "here" }));
      if (!args.json && rows.length > 0) table = await sessionTable(store, rows);
      if (args.json) {
        running = await Promise.all(rows.map((row) => store.holder(row.sessionId)));
        bytes = await Promise.all(rows.map((row) => store.sessionBytes(row.sessionId)));
      }
      journalBytes = await store.journalBytes();
    } finally {
      await store.close();
    }
  } catch (error) {
    return reportError(error, { json: args.json ?? false, ...(journal ? { context: { journal } } : {}) });
  }
  if (args.json) {
    rows.forEach(({ group, ranAt, ...listed }, i) => {
      // `running`: the live process holding the session, where one does.
      const row = { ...listed, bytes: bytes[i], ...(running[i] ? { running: running[i] } : {}) };
      out(JSON.stringify(group === "repository" ? { ...row, foundBy: group, ranAt } : row));
    });
    return 0;
  }
  out(rows.length === 0 ? "no sessions" : table);
  // The whole journal's room, all sessions and their subagents' (`verbatim prune` deletes old ones).
  if (rows.length > 0) out(`\njournal: ${byteSize(journalBytes)}${journal ? ` (${visible(journal)})` : ""}`);
  return 0;
}

/**
 * Runs a command on one stored session: checks the id and the journal's place, opens the
 * journal, and turns every failure into words and exit code 1 (2 for a bad id).
 */
export async function onSession(
  sessionId: string,
  command: (deps: EngineDeps) => Promise<number>,
  options: { write: boolean } = { write: false },
): Promise<number> {
  if (!isValidSessionId(sessionId)) {
    process.stderr.write(
      `verbatim: "${sessionId.slice(0, 200)}" is not a session id (ids look like ses_01k...); \`verbatim sessions\` lists them\n`,
    );
    return 2;
  }
  let journal: string | undefined;
  try {
    journal = checkJournalPlace(process.env, options);
    const deps = engineDeps();
    try {
      return await command(deps);
    } finally {
      await deps.store.close();
    }
  } catch (error) {
    return reportError(error, { json: false, ...(journal ? { context: { journal } } : {}) });
  }
}

/** Prints a session's transcript exactly as a client would see it after reopening it. */
export function showSession(sessionId: string): Promise<number> {
  return onSession(sessionId, async ({ store }) => {
    const forkOf = (await store.info(sessionId))?.forkOf;
    if (forkOf) out(`fork of ${forkOf.sessionId} (its first ${forkOf.seq} records)\n`);
    const imported = (await store.lastOf(sessionId, ["session_imported"]))?.fact;
    // The directory an imported session worked in where it ran: its origin, never a root here.
    if (imported?.kind === "session_imported" && imported.fromCwd !== undefined)
      out(`imported: it ran in ${quoted(imported.fromCwd)}\n`);
    const painter = new Painter(colourOn(process.stdout));
    const state = new SessionStateFold();
    let text = "";
    for (const piece of await sessionPieces(store, sessionId, state)) text += painter.paint(piece);
    // What the session may do without asking, as its facts say (a reopened client is not shown it).
    process.stdout.write(text + standingSection(standingOf(state)));
    return 0;
  });
}

/** Forks a session at its end, or at the message `at` (inclusive), and prints the new session's id. */
export function forkCommand(sessionId: string, at?: string): Promise<number> {
  return onSession(
    sessionId,
    async ({ store }) => {
      try {
        out((await forkSession(store, sessionId, false, at)).sessionId);
        return 0;
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        // An unknown message says where the ids are; the others say what to do already.
        if (error.code === "unknown_message") return reportError(error, { json: false });
        process.stderr.write(`verbatim: ${error.message}\n`);
        return 1;
      }
    },
    { write: true },
  );
}

/**
 * A stored session drawn as a client that advertised no session capabilities draws what
 * `session/load` sends it: the same replay pipeline, rendered as a transcript.
 */
export async function sessionTranscript(store: FactStore & LeaseStore, sessionId: string): Promise<string> {
  return (await sessionPieces(store, sessionId)).map((piece) => piece.text).join("");
}

/** The transcript's pieces: the title, then what the one renderer draws of the replay (see TranscriptStream). */
async function sessionPieces(
  store: FactStore & LeaseStore,
  sessionId: string,
  state?: SessionStateFold,
): Promise<Piece[]> {
  const transcript = new TranscriptRecorder();
  await readStoredSession(store, sessionId, {
    projector: new Projector({ notices: false, replay: true, sessionId }),
    sink: drawingSink((update) => transcript.apply(update)),
    ...defined({ each: state && ((record: StoredFact) => state.apply(record.fact, record.seq)) }),
  });
  return transcript.pieces();
}

/** Deletes a session and its journal, unless another live process holds it. */
export function deleteSession(sessionId: string): Promise<number> {
  return onSession(
    sessionId,
    async (deps) => {
      if (!(await deleteStoredSession(deps, sessionId))) {
        process.stderr.write(
          `verbatim: there is no session ${sessionId} in the journal; \`verbatim sessions\` lists the recorded sessions\n`,
        );
        return 1;
      }
      out(`deleted ${sessionId}`);
      return 0;
    },
    { write: true },
  );
}

/**
 * `verbatim verify ID`: recomputes the session's replay cache from its facts and reports every
 * row that differs (exit 1), or that all agree (exit 0). Never writes.
 */
export function verifySession(sessionId: string): Promise<number> {
  return onSession(sessionId, async ({ store }) => {
    if (!(await store.info(sessionId))) {
      process.stderr.write(
        `verbatim: there is no session ${sessionId} in the journal; \`verbatim sessions\` lists the recorded sessions\n`,
      );
      return 1;
    }
    const { verifyReplayCache } = await import("./verify-replay-cache.ts");
    const report = await verifyReplayCache(store, sessionId);
    for (const d of report.differences) out(`records ${d.fromSeq}-${d.toSeq} (${d.capabilities}): ${d.reason}`);
    const other = report.otherVersions > 0 ? `; ${report.otherVersions} of other projection versions, unused` : "";
    out(
      `${report.checked} cached turns and ${report.stateParts} state parts checked, ${report.differences.length} differ from the facts${other}`,
    );
    return report.differences.length > 0 ? 1 : 0;
  });
}
