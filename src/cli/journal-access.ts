/**
 * Whether the journal can be used, checked by the command line before it opens it, so a wrong
 * VERBATIM_HOME is named in words rather than surfacing as an engine failure (or, when the home
 * is a file, as an empty journal). The store itself creates the folder and files (private).
 */
import { accessSync, constants, statSync } from "node:fs";
import { journalUrl } from "../core/config/open-journal.ts";
import { dataHome, journalFile } from "../journal/paths.ts";
import { redactUrl } from "../journal/postgres-url.ts";
import { ensurePrivateDir } from "../journal/private-files.ts";
import { CliError, fsWords } from "./cli-error.ts";

type Env = Record<string, string | undefined>;

/** The folder and file, and how the user named the folder (for the advice). */
export function journalPlace(env: Env): { home: string; file: string; named: string } {
  const home = dataHome(env);
  return {
    home,
    file: journalFile(home),
    named: env.VERBATIM_HOME ? "VERBATIM_HOME" : "XDG_DATA_HOME (or ~/.local/share)",
  };
}

const errnoOf = (error: unknown) => String((error as { code?: unknown }).code ?? "");

/**
 * Throws a CliError (code `journal_unavailable`) saying what is wrong with the journal's place:
 * the folder is a file, cannot be created, or (with `write`) cannot be written. Returns the
 * journal file (or, for a journal on PostgreSQL, its URL without the password). With `write`
 * the folder is created (0700) if it is missing.
 */
export function checkJournalPlace(env: Env, options: { write: boolean }): string {
  // A journal on a server has no folder here: the store says what is wrong with it.
  const url = journalUrl(env);
  if (url !== undefined) return redactUrl(url);
  const { home, file, named } = journalPlace(env);
  const fail = (message: string, path = home) => new CliError("journal_unavailable", message, 1, { path });
  const stat = statSync(home, { throwIfNoEntry: false });
  if (stat && !stat.isDirectory()) {
    throw fail(
      `${home} is a file, not a folder. verbatim keeps its journal in the folder ${named} names: point it at a folder, or move the file away.`,
    );
  }
  if (!options.write) {
    if (stat && statSync(file, { throwIfNoEntry: false }) && !canAccess(file, constants.R_OK)) {
      throw fail(
        `cannot read the journal ${file} (permission denied). Make it readable by you (it should be yours, mode 0600).`,
        file,
      );
    }
    return file;
  }
  try {
    ensurePrivateDir(home);
  } catch (error) {
    const code = errnoOf(error);
    throw fail(
      `cannot create the journal's folder ${home} (${code}: ${fsWords(code)}). Set ${named} to a folder you can write.`,
    );
  }
  if (!canAccess(home, constants.W_OK | constants.X_OK)) {
    throw fail(
      `cannot write in the journal's folder ${home} (permission denied). Set ${named} to a folder you can write.`,
    );
  }
  if (statSync(file, { throwIfNoEntry: false }) && !canAccess(file, constants.R_OK | constants.W_OK)) {
    throw fail(
      `cannot write the journal ${file} (permission denied). Make it yours and writable (mode 0600), or set ${named} to another folder.`,
      file,
    );
  }
  return file;
}

function canAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}
