import { AUTHORITY_INDEX, AUTHORITY_KINDS_SQL } from "./facts/authority.ts";

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
 * Each session's prompts, for the history list (it leaves out sessions never prompted): small,
 * as it holds only prompt records. Created by the first writer that does not find it; a verbatim
 * that does not know it writes on as before (SQLite keeps it up to date).
 */
export const promptIndexSql =
  "CREATE INDEX IF NOT EXISTS facts_prompts ON facts (session_id, at) WHERE kind = 'prompt_received'";

/**
 * A session's authority records (facts/authority.ts): a load restored from the replay cache reads
 * them instead of trusting the cached state. Created like the prompt index; a reader of a journal
 * without it scans the session's records instead (slower, the same answer).
 */
export const authorityIndexSql = `CREATE INDEX IF NOT EXISTS ${AUTHORITY_INDEX} ON facts (session_id, seq) WHERE kind IN (${AUTHORITY_KINDS_SQL})`;

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
CREATE INDEX IF NOT EXISTS facts_prompts ON facts (session_id, at) WHERE kind = 'prompt_received';
${authorityIndexSql};
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
