/** The journal database layout. Append-only is enforced here, by triggers, not by convention. */
export const LAYOUT_VERSION = 1;

export const layoutSql = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
  session_id TEXT PRIMARY KEY,
  cwd TEXT NOT NULL,
  additional_directories TEXT NOT NULL,
  title TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  parent_session_id TEXT
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
`;
