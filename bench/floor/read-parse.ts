/**
 * The reopen floor: loads SQLite, opens the journal, reads a session's stored rows and parses
 * each body: the least any reader of the journal must do, in a fresh process like verbatim's load
 * (which loads SQLite and opens the journal after `initialize`, so its load pays for both).
 * Prints the milliseconds it took (`openMs` of them to load SQLite and open the file) and the
 * bytes it read, as JSON.
 *
 * usage: bun bench/floor/read-parse.ts DB SESSION_ID
 */
const [path, sessionId] = process.argv.slice(2);
if (!path || !sessionId) throw new Error("usage: read-parse.ts DB SESSION_ID");
const t0 = performance.now();
// require, not a static import: loading SQLite is timed (a bytecode bundle has no top-level await).
const { Database } = require("bun:sqlite") as typeof import("bun:sqlite");
const db = new Database(path, { readonly: true });
// As verbatim's reader: wait out another connection's lock (a checkpoint, a writer closing) rather than fail.
db.run("PRAGMA busy_timeout = 5000");
const openMs = performance.now() - t0;
let bytes = 0;
let rows = 0;
for (const row of db
  .query<{ seq: number; kind: string; v: number; at: string; body: string }, [string]>(
    "SELECT seq, kind, v, at, body FROM facts WHERE session_id = ? ORDER BY seq",
  )
  .iterate(sessionId)) {
  bytes += row.body.length;
  rows++;
  JSON.parse(row.body);
}
const ms = performance.now() - t0;
db.close();
process.stdout.write(`${JSON.stringify({ ms, openMs, bytes, rows })}\n`);
