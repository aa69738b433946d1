/**
 * `verbatim export ID [--file F]` and `verbatim import F [--cwd DIR] [--new-id]`: a session moved
 * between machines (or journals) as one file (see src/journal/export-format.ts).
 */
import { closeSync, fchmodSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { mintId, isValidSessionId } from "../core/ids.ts";
import { readOrigin } from "../core/session/session-origin.ts";
import { JournalError, sessionNotFound } from "../journal/errors.ts";
import { exportLines, parseExport } from "../journal/export-format.ts";
import type { Fact } from "../journal/facts/index.ts";
import { openJournal } from "../journal/open-journal.ts";
import type { JournalStore } from "../journal/store.ts";
import { SessionStateFold } from "../replay/state.ts";
import { defined } from "../defined.ts";

const fail = (message: string, code = 1): number => {
  process.stderr.write(`verbatim: ${message}\n`);
  return code;
};

/** Runs `command` on the journal, turning journal errors into a message and exit code 1. */
async function withStore(command: (store: JournalStore) => Promise<number>): Promise<number> {
  const store = openJournal(process.env);
  try {
    return await command(store);
  } catch (error) {
    if (error instanceof JournalError) return fail(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

/** Writes the session's export file to `file` (created private, 0600) or to stdout. */
export function exportCommand(sessionId: string, file?: string): Promise<number> {
  if (!isValidSessionId(sessionId)) return Promise.resolve(fail(`"${sessionId}" is not a session id`, 2));
  return withStore(async (store) => {
    const row = await store.info(sessionId);
    if (!row) throw sessionNotFound(sessionId);
    const fd = file === undefined ? 1 : openSync(file, "w", 0o600);
    try {
      if (file !== undefined) fchmodSync(fd, 0o600);
      for await (const line of exportLines(row, store.readPages(sessionId))) writeSync(fd, `${line}\n`);
    } finally {
      if (file !== undefined) closeSync(fd);
    }
    if (file !== undefined) process.stderr.write(`exported ${sessionId} to ${file}\n`);
    return 0;
  });
}

/**
 * Imports an export file as one session, all of it or nothing, and prints its id. `newId` gives
 * it a fresh id (else an id already in the journal is refused); `cwd` makes it live in that
 * directory from now on, recorded as a fact after its own records.
 */
export function importCommand(file: string, options: { cwd?: string; newId?: boolean }): Promise<number> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return Promise.resolve(fail(`cannot read ${file}: ${(error as Error).message}`));
  }
  const cwd = options.cwd === undefined ? undefined : resolve(options.cwd);
  if (cwd !== undefined && !statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
    return Promise.resolve(fail(`--cwd ${cwd} is not a directory`, 2));
  }
  let imported: ReturnType<typeof parseExport>;
  try {
    imported = parseExport(text);
  } catch (error) {
    if (error instanceof JournalError) return Promise.resolve(fail(`${file}: ${error.message}; nothing was imported`));
    throw error;
  }
  const { row, records } = imported;
  if (!isValidSessionId(row.sessionId) && !options.newId)
    return Promise.resolve(fail(`${file}: "${row.sessionId}" is not a session id; import it with --new-id`));
  const sessionId = options.newId ? mintId("ses") : row.sessionId;
  const moved: { fact: Fact; at: string }[] = [];
  if (cwd !== undefined) {
    const state = new SessionStateFold();
    records.forEach(({ fact }, i) => state.apply(fact, i + 1));
    moved.push({
      fact: { kind: "session_moved", fromCwd: state.cwd, cwd, origin: readOrigin(cwd) },
      at: new Date().toISOString(),
    });
  }
  return withStore(async (store) => {
    try {
      await store.importSession({ ...row, sessionId, ...defined({ cwd }) }, [...records, ...moved]);
    } catch (error) {
      if (error instanceof JournalError && error.code === "exists") {
        return fail(`session ${sessionId} is already in this journal; import it as a new session with --new-id`);
      }
      throw error;
    }
    process.stdout.write(`${sessionId}\n`);
    return 0;
  });
}
