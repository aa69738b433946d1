/**
 * The partial indexes of kinds a session holds few records of, by which a session's last record
 * of such a kind is found (`lastOf`), its records of one counted (`countOf`), and its authority
 * records read. Without one, asking for a kind the session holds only at its start
 * (`session_started`) or not at all (`session_rewound`, most sessions) walks every record of the
 * session: half a second for a session of 10,000 turns in `verbatim sessions`. A query uses a
 * partial index only by saying its predicate (SQLite needs the very term; PostgreSQL must see it
 * implied), so each index carries it.
 */
import { AUTHORITY_INDEX, AUTHORITY_KINDS, AUTHORITY_KINDS_SQL } from "./authority.ts";
import type { FactKind } from "./index.ts";

/** `columns` after the session id: the record's number, or its time (the prompts, listed by when they came). */
export type SparseIndex = { name: string; kinds: readonly FactKind[]; predicate: string; columns: "seq" | "at" };

export const AUTHORITY_SPARSE_INDEX: SparseIndex = {
  name: AUTHORITY_INDEX,
  kinds: AUTHORITY_KINDS,
  predicate: `kind IN (${AUTHORITY_KINDS_SQL})`,
  columns: "seq",
};

export const SPARSE_INDEXES: readonly SparseIndex[] = [
  // One a turn: counted for the turns `verbatim sessions` shows.
  { name: "facts_prompts", kinds: ["prompt_received"], predicate: "kind = 'prompt_received'", columns: "at" },
  AUTHORITY_SPARSE_INDEX,
  { name: "facts_rewinds", kinds: ["session_rewound"], predicate: "kind = 'session_rewound'", columns: "seq" },
];

/** The index that holds every record of `kinds`, if one does. */
export const sparseIndexFor = (kinds: readonly FactKind[]): SparseIndex | undefined =>
  kinds.length === 0 ? undefined : SPARSE_INDEXES.find((index) => kinds.every((kind) => index.kinds.includes(kind)));

/** The predicate of the index that holds every record of `kinds`, with its `AND`, to start a query's conditions with; "" when none does. */
export const sparsePredicate = (kinds: readonly FactKind[]): string => {
  const index = sparseIndexFor(kinds);
  return index ? `${index.predicate} AND ` : "";
};

/** The statement creating `index` on `table` (a writer runs it when it opens a journal without it). */
export const sparseIndexSql = (index: SparseIndex, table: string): string =>
  `CREATE INDEX IF NOT EXISTS ${index.name} ON ${table} (session_id, ${index.columns}) WHERE ${index.predicate}`;
