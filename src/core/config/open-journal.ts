/**
 * Which store holds the journal: PostgreSQL when VERBATIM_JOURNAL (or `journal.url` in the user
 * config file) is a `postgres://` URL, else SQLite under VERBATIM_HOME, which needs nothing.
 */
import { readUserSettingsFile, settingsFiles } from "./settings.ts";
import { JournalError } from "../../journal/errors.ts";
import { dataHome, journalFile } from "../../journal/paths.ts";
import { PostgresJournal } from "../../journal/postgres-store.ts";
import { isPostgresUrl, redactUrl } from "../../journal/postgres-url.ts";
import { SqliteJournal } from "../../journal/sqlite-store.ts";
import type { JournalStore } from "../../journal/store.ts";

export function openJournal(env: Record<string, string | undefined>): JournalStore {
  const url = journalUrl(env);
  const durability = env.VERBATIM_DURABILITY === "strict" ? "strict" : "normal";
  if (url !== undefined) return new PostgresJournal(url, { durability });
  return new SqliteJournal(journalFile(dataHome(env)), durability);
}

/** The journal's server URL, if one is configured (the environment wins over the user config). */
export function journalUrl(env: Record<string, string | undefined>): string | undefined {
  const fromEnv = env.VERBATIM_JOURNAL?.trim();
  if (fromEnv) {
    if (!isPostgresUrl(fromEnv)) {
      throw new JournalError("unreachable", `VERBATIM_JOURNAL must be a postgres:// URL, got "${redactUrl(fromEnv)}"`);
    }
    return fromEnv;
  }
  const user = readUserSettingsFile(settingsFiles(env, process.cwd()).user);
  return user.ok ? user.settings?.journal?.url : undefined;
}
