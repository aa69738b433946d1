import { SPARSE_INDEXES, sparseIndexSql } from "./facts/sparse-indexes.ts";

/** The journal database layout. Append-only is enforced here, by triggers, not by convention. */
export const LAYOUT_VERSION = 2;

/**
 * Layout 2 adds the blob table: large payloads of facts (prompt images, embedded resources), one
 * row per session and content hash, append-only like facts. A layout-1 database is upgraded in
 * place by the first process that opens it for writing (it only gains this table); a process that
 * only reads a layout-1 database needs no blob (no layout-1 record refers to one).
 */
export const blobLayoutSql = `
CREATE TABLE IF NOT EXISTS blobs (
  session_id TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  data TEXT NOT NULL,
  UNIQUE (session_id, sha256)
);
CREATE TRIGGER IF NOT EXISTS blobs_no_update BEFORE UPDATE ON blobs
BEGIN SELECT RAISE(ABORT, 'verbatim journal: blobs are append-only'); END;
CREATE TRIGGER IF NOT EXISTS blobs_no_delete BEFORE DELETE ON blobs
WHEN NOT EXISTS (SELECT 1 FROM deleting WHERE session_id = OLD.session_id)
BEGIN SELECT RAISE(ABORT, 'verbatim journal: blobs are append-only'); END;
`;

/**
 * A fork's origin (JSON: the source session and its last record copied). Added to an older
 * database of the same layout by the first process that opens it for writing: a verbatim that
 * does not know the column reads and writes the table as before, so the layout is unchanged.
 */
export const forkColumnSql = "ALTER TABLE sessions ADD COLUMN forked_from TEXT";

/**
 * The sparse kinds' indexes (facts/sparse-indexes.ts): each session's prompts (the history list
 * leaves out sessions never prompted; `verbatim sessions` counts them), its authority records
 * (read by a load restored from the replay cache instead of trusting the cached state) and its
 * rewinds. Created by the first writer that does not find one; a verbatim that does not know one
 * writes on as before (SQLite keeps it up to date), and a reader of a journal without one scans
 * the session instead (slower, the same answer).
 */
export const sparseIndexesSql = SPARSE_INDEXES.map((index) => sparseIndexSql(index, "facts"));

export const layoutSql = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
  session_id TEXT PRIMARY KEY,
  cwd TEXT NOT NULL,
  additional_directories TEXT NOT NULL,
  title TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  parent_session_id TEXT,
  forked_from TEXT
);
CREATE INDEX IF NOT EXISTS sessions_by_update ON sessions (updated_at DESC, session_id DESC);
CREATE TABLE IF NOT EXISTS facts (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  v INTEGER NOT NULL,
  at TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
${sparseIndexesSql.join(";\n")};
CREATE TABLE IF NOT EXISTS leases (
  session_id TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  start_time TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deleting (session_id TEXT PRIMARY KEY);
CREATE TRIGGER IF NOT EXISTS facts_no_update BEFORE UPDATE ON facts
BEGIN SELECT RAISE(ABORT, 'verbatim journal: facts are append-only'); END;
CREATE TRIGGER IF NOT EXISTS facts_no_delete BEFORE DELETE ON facts
WHEN NOT EXISTS (SELECT 1 FROM deleting WHERE session_id = OLD.session_id)
BEGIN SELECT RAISE(ABORT, 'verbatim journal: facts are append-only'); END;
CREATE TRIGGER IF NOT EXISTS facts_in_sequence BEFORE INSERT ON facts
WHEN NEW.seq <> COALESCE((SELECT MAX(seq) FROM facts WHERE session_id = NEW.session_id), 0) + 1
BEGIN SELECT RAISE(ABORT, 'verbatim journal: out-of-sequence append'); END;
${blobLayoutSql}`;
