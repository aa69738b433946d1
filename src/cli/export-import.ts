/**
 * `verbatim export ID [--file F]` and `verbatim import F [--cwd DIR] [--new-id] [--keep-permissions]`:
 * a session moved between machines (or journals) as one file (see src/journal/export-format.ts).
 * An import brings the session's history, never what it was allowed where it ran (see
 * import-authority.ts); its directory is `--cwd` or the recorded one, checked (import-roots.ts).
 */
import { writeSync } from "node:fs";
import { mintId, isValidSessionId } from "../core/ids.ts";
import { readOrigin } from "../core/session/session-origin.ts";
import { JournalError, sessionNotFound } from "../journal/errors.ts";
import { ExportReader, exportLines, type ImportedSession } from "../journal/export-format.ts";
import type { Fact } from "../journal/facts/index.ts";
import { openJournal } from "../core/config/open-journal.ts";
import type { JournalStore, SessionRow } from "../journal/store.ts";
import { SessionStateFold } from "../replay/state.ts";
import { quoted, standingPhrases } from "../view/standing-permissions.ts";
import { defined } from "../shared/defined.ts";
import { fileLines } from "./file-lines.ts";
import { importedAuthority } from "./import-authority.ts";
import { standingOf } from "./session-standing.ts";
import { givenDirectory, recordedDirectoryProblem } from "./import-roots.ts";
import { checkExportTarget, ExportFileError, writePrivateFile } from "./private-export-file.ts";
import { STDOUT_CLOSED_EXIT } from "./stdout-sink.ts";

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

/** Writes the session's export file to `file` (a new private file of the user's, see private-export-file.ts) or to stdout. */
export function exportCommand(sessionId: string, file?: string): Promise<number> {
  if (!isValidSessionId(sessionId)) return Promise.resolve(fail(`"${sessionId}" is not a session id`, 2));
  try {
    // Refused before the journal is opened; checked again as the file is put in place.
    if (file !== undefined) checkExportTarget(file);
  } catch (error) {
    if (error instanceof ExportFileError) return Promise.resolve(fail(error.message));
    throw error;
  }
  return withStore(async (store) => {
    const row = await store.info(sessionId);
    if (!row) throw sessionNotFound(sessionId);
    const writeTo = async (fd: number) => {
      for await (const line of exportLines(row, store.readPages(sessionId))) writeSync(fd, `${line}\n`);
    };
    if (file === undefined) {
      try {
        await writeTo(1);
      } catch (error) {
        // A reader that went away (`verbatim export ID | head -1`) ends the export quietly, as `run` does.
        if ((error as { code?: unknown }).code === "EPIPE") return STDOUT_CLOSED_EXIT;
        throw error;
      }
      return 0;
    }
    try {
      await writePrivateFile(file, writeTo);
    } catch (error) {
      if (error instanceof ExportFileError) return fail(error.message);
      throw error;
    }
    process.stderr.write(`exported ${sessionId} to ${file}\n`);
    return 0;
  });
}

export type ImportOptions = { cwd?: string; newId?: boolean; keepPermissions?: boolean };

/**
 * Imports an export file as one session, all of it or nothing, and prints its id. `newId` gives
 * it a fresh id (else an id already in the journal is refused); `cwd` makes it live in that
 * directory from now on, recorded as a fact after its own records; `keepPermissions` keeps what
 * the file allowed (else it is dropped, and each dropped permission is named on stderr).
 */
export async function importCommand(file: string, options: ImportOptions): Promise<number> {
  let cwd: string | undefined;
  try {
    if (options.cwd !== undefined) cwd = givenDirectory(options.cwd);
  } catch (error) {
    return fail((error as Error).message, 2);
  }
  let imported: ImportedSession;
  try {
    imported = await readExport(file);
  } catch (error) {
    if (error instanceof JournalError) return fail(`${file}: ${error.message}; nothing was imported`);
    if ((error as NodeJS.ErrnoException).code !== undefined)
      return fail(`cannot read ${file}: ${(error as Error).message}`);
    throw error;
  }
  const { row, records } = imported;
  if (!isValidSessionId(row.sessionId) && !options.newId)
    return fail(`${file}: ${quoted(row.sessionId.slice(0, 200))} is not a session id; import it with --new-id`);
  const state = new SessionStateFold();
  records.forEach(({ fact }, i) => state.apply(fact, i + 1));
  const keep = options.keepPermissions === true;
  const refused = refusedDirectory(state, cwd, keep);
  if (refused) return fail(`${file}: ${refused}; nothing was imported`);
  const sessionId = options.newId ? mintId("ses") : row.sessionId;
  const at = new Date().toISOString();
  const appended: Fact[] = [
    ...(cwd !== undefined
      ? [{ kind: "session_moved" as const, fromCwd: state.cwd, cwd, origin: readOrigin(cwd) }]
      : []),
    ...importedAuthority(state, keep),
  ];
  const report = standingReport(state, keep);
  return withStore(async (store) => {
    const forkOf = row.forkOf && (await store.info(row.forkOf.sessionId)) ? row.forkOf : undefined;
    const imported: SessionRow = {
      sessionId,
      cwd: cwd ?? state.cwd,
      additionalDirectories: keep ? state.additionalDirectories : [],
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      ...defined({ title: row.title, forkOf }),
    };
    try {
      await store.importSession(imported, [...records, ...appended.map((fact) => ({ fact, at }))]);
    } catch (error) {
      if (error instanceof JournalError && error.code === "exists") {
        return fail(`session ${sessionId} is already in this journal; import it as a new session with --new-id`);
      }
      throw error;
    }
    if (row.forkOf && !forkOf)
      process.stderr.write(
        `verbatim: the file says this session is a fork of ${quoted(row.forkOf.sessionId.slice(0, 200))}, which is not in this journal: it is imported as a session of its own\n`,
      );
    process.stderr.write(report);
    process.stdout.write(`${sessionId}\n`);
    return 0;
  });
}

async function readExport(file: string): Promise<ImportedSession> {
  const reader = new ExportReader();
  for await (const line of fileLines(file)) reader.push(line);
  return reader.finish();
}

/** Why the session cannot have the directories it would have here, or undefined when it can. */
function refusedDirectory(state: SessionStateFold, cwd: string | undefined, keep: boolean): string | undefined {
  const problem = cwd === undefined ? recordedDirectoryProblem(state.cwd) : undefined;
  if (problem)
    return `the session's recorded directory ${quoted(state.cwd.slice(0, 200))} cannot be a session's directory (${problem}): import it with --cwd DIR, the directory it is to work in here`;
  if (!keep) return undefined;
  for (const dir of [...state.additionalDirectories, ...state.grantedDirectories]) {
    const problem = recordedDirectoryProblem(dir);
    if (problem)
      return `--keep-permissions: the file's directory ${quoted(dir.slice(0, 200))} cannot be kept (${problem}); import without --keep-permissions`;
  }
  return undefined;
}

/** The lines naming what the file allowed, and what became of it. */
function standingReport(state: SessionStateFold, keep: boolean): string {
  const standing = standingOf(state);
  const phrases = standingPhrases(standing);
  if (phrases.length === 0) return "";
  if (keep) return phrases.map((p) => `kept (--keep-permissions): ${p}\n`).join("");
  return (
    "verbatim: an imported session brings its history, not what it was allowed where it ran " +
    "(verbatim import --keep-permissions keeps that):\n" +
    phrases.map((p) => `dropped: ${p}\n`).join("") +
    (standing.mode
      ? "the session continues in the Default mode (it asks before editing files or running commands)\n"
      : "")
  );
}
