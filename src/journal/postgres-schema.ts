/**
 * The journal's layout in PostgreSQL, in a schema of its own (`verbatim`). The same ideas as
 * SQLite's (sqlite-schema.ts): facts and blobs are append-only by triggers, the sequence has no
 * gap (a trigger) and no duplicate (the primary key), whoever writes. Leases add what a server
 * shared across machines needs: the holder's host and an epoch that fences a writer taken over.
 *
 * `upgrades[n]` takes a database from layout n to n + 1; a database is brought up to
 * `PG_LAYOUT_VERSION` by the first process that writes, in one transaction, under a lock.
 */
import { SPARSE_INDEXES, sparseIndexSql } from "./facts/sparse-indexes.ts";

export const PG_LAYOUT_VERSION = 1;

/** Serializes layout setup and upgrades between processes (an advisory transaction lock). */
export const LAYOUT_LOCK_KEY = 0x7665726261; // "verba"

const appendOnly = (table: string) => `
CREATE OR REPLACE FUNCTION verbatim.${table}_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM verbatim.deleting WHERE session_id = OLD.session_id) THEN
    RAISE EXCEPTION 'verbatim journal: ${table} are append-only' USING ERRCODE = 'P0001';
  END IF;
  RETURN OLD;
END $$;
CREATE TRIGGER ${table}_no_update BEFORE UPDATE ON verbatim.${table} FOR EACH ROW EXECUTE FUNCTION verbatim.${table}_append_only();
CREATE TRIGGER ${table}_no_delete BEFORE DELETE ON verbatim.${table} FOR EACH ROW EXECUTE FUNCTION verbatim.${table}_append_only();
`;

/** Layout 1, from an empty database. */
const layout1 = `
CREATE SCHEMA IF NOT EXISTS verbatim;
CREATE TABLE verbatim.meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE verbatim.sessions (
  session_id text PRIMARY KEY,
  cwd text NOT NULL,
  additional_directories text NOT NULL,
  title text,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  parent_session_id text,
  forked_from text
);
CREATE INDEX sessions_by_update ON verbatim.sessions (updated_at DESC, session_id DESC);
CREATE TABLE verbatim.facts (
  session_id text NOT NULL,
  seq integer NOT NULL,
  kind text NOT NULL,
  v integer NOT NULL,
  at text NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (session_id, seq)
);
CREATE TABLE verbatim.blobs (
  session_id text NOT NULL,
  sha256 text NOT NULL,
  data text NOT NULL,
  PRIMARY KEY (session_id, sha256)
);
CREATE TABLE verbatim.leases (
  session_id text PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  start_time text NOT NULL,
  epoch bigint NOT NULL
);
CREATE TABLE verbatim.deleting (session_id text PRIMARY KEY);
${appendOnly("facts")}
${appendOnly("blobs")}
CREATE OR REPLACE FUNCTION verbatim.facts_in_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.seq <> COALESCE((SELECT max(seq) FROM verbatim.facts WHERE session_id = NEW.session_id), 0) + 1 THEN
    RAISE EXCEPTION 'verbatim journal: out-of-sequence append' USING ERRCODE = 'P0002';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER facts_in_sequence BEFORE INSERT ON verbatim.facts FOR EACH ROW EXECUTE FUNCTION verbatim.facts_in_sequence();
`;

/**
 * What layout 1 gained since, without a new layout version (a verbatim that does not know these
 * writes on as before, and older machines sharing the journal keep working): done by the first
 * writer allowed to (the owner), once; a journal without them answers the same. Done once every
 * sparse index of today's is there, so a new index, or new kinds (a new name), harden again (every
 * statement here may run twice).
 * - The sparse kinds indexed (facts/sparse-indexes.ts): a session's authority records, for a
 *   load restored from the replay cache, and its rewinds; without them the same queries scan the
 *   session.
 * - An update of a fact or blob refused always, as SQLite's triggers do: layout 1 let one through
 *   while the session was marked for deletion, so a role that may insert into `deleting` could
 *   rewrite a fact in place. Deleting a whole session is still the one exception.
 */
export const HARDENED_MARKS = SPARSE_INDEXES.map((index) => `verbatim.${index.name}`);
export const hardeningSql = `
${SPARSE_INDEXES.map((index) => `${sparseIndexSql(index, "verbatim.facts")};`).join("\n")}
CREATE OR REPLACE FUNCTION verbatim.no_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'verbatim journal: % are append-only', TG_TABLE_NAME USING ERRCODE = 'P0001';
END $$;
DROP TRIGGER IF EXISTS facts_no_update ON verbatim.facts;
CREATE TRIGGER facts_no_update BEFORE UPDATE ON verbatim.facts FOR EACH ROW EXECUTE FUNCTION verbatim.no_update();
DROP TRIGGER IF EXISTS blobs_no_update ON verbatim.blobs;
CREATE TRIGGER blobs_no_update BEFORE UPDATE ON verbatim.blobs FOR EACH ROW EXECUTE FUNCTION verbatim.no_update();
`;

/** `upgrades[n]`: layout n to n + 1 (`upgrades[0]` creates layout 1). */
export const upgrades: readonly string[] = [layout1];
