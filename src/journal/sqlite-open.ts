/**
 * Opening the journal database file, and refusing one that is not a healthy verbatim journal
 * before anything is written to it: an empty file, a file that is no verbatim journal (or no
 * database), a damaged one (`PRAGMA quick_check`, when first opened for writing), a read-only
 * one, or one written by a newer verbatim. Each refusal is a JournalError naming the file and
 * what is wrong. A journal is created whole or not at all (built aside, then linked into place),
 * so verbatim never leaves an empty or half-made journal behind; and it never changes the
 * permissions of a file it did not create.
 */
import { Database } from "bun:sqlite";
import { accessSync, constants, linkSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { JournalError } from "./errors.ts";
import { sqliteAnswerClaimsSql } from "./answer-claims.ts";
import { sqliteInboxSql } from "./session-inbox.ts";
import { sqliteAttachmentsSql } from "./session-attachments.ts";
import { ensurePrivateDir, ensurePrivateFile } from "./private-files.ts";
import { blobLayoutSql, forkColumnSql, LAYOUT_VERSION, layoutSql, sparseIndexesSql } from "./sqlite-schema.ts";
import { guard } from "./sqlite-errors.ts";
import { schemaVersion, settleCacheTrust } from "./sqlite-replay-cache.ts";

export const BUSY_TIMEOUT_MS = 5000;

/**
 * The read-only connection's page cache, in pages. What it reads (a load's cached lines, a
 * session's records) it reads once, in order, so a larger cache keeps nothing that is read again;
 * it only costs memory the process has not touched before, one page fault a page (SQLite's
 * default of 2 MB made a 500-turn load from the cache about 15% slower: docs/performance.md).
 */
export const READER_CACHE_PAGES = 16;

/** `run`, with any JournalError it throws naming the file (unless it already does). */
export function naming<T>(path: string, run: () => T): T {
  try {
    return guard(undefined, run);
  } catch (error) {
    if (error instanceof JournalError && !error.message.includes(path)) {
      throw new JournalError(error.code, `${path}: ${error.message}`, { ...error.details, path });
    }
    throw error;
  }
}

/** The journal opened read-only; undefined when there is no journal file yet. */
export function openForReading(path: string): Database | undefined {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
  if (size === undefined) return undefined;
  return naming(path, () => {
    if (size === 0) throw emptyFile(path);
    const db = new Database(path, { readonly: true, strict: true });
    try {
      db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.run(`PRAGMA cache_size = ${READER_CACHE_PAGES}`);
      checkLayout(db, path);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  });
}

/**
 * The journal opened for writing, created first if there is none. An existing file is checked
 * (writable, a verbatim journal of a known layout, `quick_check` clean) before any write; a
 * layout-1 journal is then upgraded in place. `created` says whether this call made the file.
 */
export function openForWriting(path: string, synchronous: "FULL" | "NORMAL"): { db: Database; created: boolean } {
  ensurePrivateDir(dirname(path));
  const created = createIfMissing(path);
  return naming(path, () => {
    if (statSync(path).size === 0) throw emptyFile(path);
    if (!writable(path)) {
      throw new JournalError(
        "read_only",
        `${path} is not writable (mode ${(statSync(path).mode & 0o777).toString(8).padStart(4, "0")}); nothing was written. ` +
          "verbatim does not change the permissions of a journal it did not create: make it writable (chmod u+w) to write sessions",
        { path },
      );
    }
    const db = new Database(path, { readwrite: true, strict: true });
    try {
      db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // Never write to a file that is not already a healthy journal: check before any pragma that writes.
      const layout = checkLayout(db, path);
      quickCheck(db, path);
      db.run("PRAGMA journal_mode = WAL");
      db.run(`PRAGMA synchronous = ${synchronous}`);
      // One transaction, so that two writers opening at once see each other's changes whole.
      db.transaction(() => {
        const before = schemaVersion(db);
        if (layout < 2) {
          // In-place upgrade from layout 1: the blob table is the only difference.
          db.run(blobLayoutSql);
          db.run("UPDATE meta SET value = ? WHERE key = 'layout'", [String(LAYOUT_VERSION)]);
        }
        const columns = db.query<{ name: string }, []>("PRAGMA table_info(sessions)").all();
        if (!columns.some((c) => c.name === "forked_from")) db.run(forkColumnSql);
        for (const statement of sparseIndexesSql) db.run(statement);
        db.run(sqliteAnswerClaimsSql);
        db.run(sqliteInboxSql);
        db.run(sqliteAttachmentsSql);
        settleCacheTrust(db, before);
      }).immediate();
      return { db, created };
    } catch (error) {
      db.close();
      throw error;
    }
  });
}

/**
 * Creates a new, complete journal at `path` if there is no file there: built in a private file
 * beside it, then linked into place (a link fails rather than replace a journal another process
 * made meanwhile). True when this call made it.
 */
function createIfMissing(path: string): boolean {
  if (statSync(path, { throwIfNoEntry: false })) return false;
  const aside = `${path}.new-${process.pid}`;
  rmSync(aside, { force: true });
  ensurePrivateFile(aside);
  try {
    naming(path, () => {
      const db = new Database(aside, { readwrite: true, strict: true });
      try {
        db.transaction(() => {
          db.run(layoutSql);
          db.run("INSERT INTO meta (key, value) VALUES ('layout', ?)", [String(LAYOUT_VERSION)]);
        }).immediate();
      } finally {
        db.close();
      }
    });
    try {
      linkSync(aside, path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
  } finally {
    rmSync(aside, { force: true });
    rmSync(`${aside}-journal`, { force: true });
  }
}

/** True when the user may write the file: its owner-write bit is set (the user's intent, even for root) and access allows it. */
function writable(path: string): boolean {
  if ((statSync(path).mode & 0o200) === 0) return false;
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const emptyFile = (path: string) =>
  new JournalError(
    "empty_database",
    `${path} is empty (0 bytes), so it is not a verbatim journal; nothing was written. Move it aside and verbatim starts a new journal`,
    { path },
  );

/** The database's layout version; throws when it is not a verbatim journal or is newer than this verbatim. */
function checkLayout(db: Database, path: string): number {
  const meta = db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
    .get();
  if (!meta) {
    throw new JournalError(
      "not_a_journal",
      `${path} is an SQLite database but not a verbatim journal (it has no meta table); nothing was written`,
      { path },
    );
  }
  const row = db.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'layout'").get();
  const version = Number(row?.value);
  if (!row || !Number.isInteger(version)) {
    throw new JournalError(
      "corrupt_database",
      `${path}: the journal database has no layout record; nothing was written`,
      { path },
    );
  }
  if (version > LAYOUT_VERSION) {
    throw new JournalError(
      "newer_database",
      `${path} was written by a newer verbatim (layout ${version}; this version knows ${LAYOUT_VERSION}); nothing was written. Upgrade verbatim to open it`,
      { path, layout: version },
    );
  }
  return version;
}

/** SQLite's own quick integrity check: a damaged database is never written to. */
function quickCheck(db: Database, path: string): void {
  let rows: Record<string, unknown>[];
  try {
    rows = db.query<Record<string, unknown>, []>("PRAGMA quick_check(5)").all();
  } catch (error) {
    // The check itself can fail on a damaged file ("database disk image is malformed").
    rows = [{ error: error instanceof Error ? error.message : String(error) }];
  }
  const findings = rows
    .flatMap((r) => Object.values(r))
    .filter((v): v is string => typeof v === "string")
    .map((v) => v.replace(/\s*\n\s*/g, "; "));
  if (findings.length === 1 && findings[0] === "ok") return;
  throw new JournalError(
    "corrupt_database",
    `${path} is damaged (PRAGMA quick_check: ${findings.join("; ").slice(0, 500)}); nothing was written`,
    { path },
  );
}
