/**
 * The facts that say what a session may do: its roots (cwd and additional directories), its
 * mode and config, the system prompt and tools it started with, the rules of "always" answers and
 * the directories the user let it into. A load that restores a session from the replay cache
 * (derived data anyone with write access to the cache could rewrite) takes these from the facts
 * instead; they are few, and both stores index them.
 */
import type { FactKind } from "./index.ts";

export const AUTHORITY_KINDS = [
  "session_started",
  "session_moved",
  "config_changed",
  "access_granted",
  "permission_rule_added",
  // An import's record of what the file's rules, grants and additional directories leave standing (none unless kept).
  "session_imported",
] as const satisfies readonly FactKind[];

/**
 * The authority index's name, which changes whenever AUTHORITY_KINDS does: a query for these kinds
 * cannot use an index of other kinds (SQLite refuses `INDEXED BY` one, "no query solution", and
 * PostgreSQL scans the session instead), so a journal indexed for other kinds gains this index and
 * keeps its old one, which an older verbatim sharing the journal still uses.
 * test/journal/authority-index.test.ts pins each name's kinds.
 */
export const AUTHORITY_INDEX = "facts_authority_2";

/** The kinds as an SQL list of literals: an index's predicate and the query that uses it must say the same. */
export const AUTHORITY_KINDS_SQL = AUTHORITY_KINDS.map((k) => `'${k}'`).join(", ");
