/**
 * The reads a `session/load` makes through the statement cache, run once on the read-only
 * connection for a session that cannot exist (its id is empty; session ids never are), while the
 * agent waits for its first request (acp/warm-up.ts): SQLite compiles each statement (`db.query`
 * keeps it for the same text), and the code that runs them is run once, so a load does neither.
 * (The facts are read by a statement of each read's own: sqlite-reads.ts.) Finds nothing, and
 * never writes (the connection is read-only).
 */
import type { Database } from "bun:sqlite";
import { authorityFacts, lastFactOf, leaseOf, sessionInfo } from "./sqlite-reads.ts";
import { readParts, readRowPage } from "./sqlite-replay-cache.ts";

const NO_SESSION = "";
const ANY_KEY = { version: 0, capabilities: "" };

export function warmLoadReads(db: Database): void {
  sessionInfo(db, NO_SESSION);
  lastFactOf(db, NO_SESSION, ["session_rewound"]);
  readRowPage(db, NO_SESSION, ANY_KEY, 1, 1);
  readParts(db, NO_SESSION, ANY_KEY, ["head"]);
  readParts(db, NO_SESSION, ANY_KEY);
  authorityFacts(db, NO_SESSION, 0);
  leaseOf(db, NO_SESSION);
}
