/**
 * The reopen floor: reads a session's stored rows with bun:sqlite and parses each body, the
 * least any reader of the journal must do, in a fresh process like verbatim's load. Prints the
 * milliseconds it took and the bytes it read, as JSON.
 *
 * usage: bun bench/floor/read-parse.ts DB SESSION_ID
 */
import { Database } from "bun:sqlite";

const [path, sessionId] = process.argv.slice(2);
if (!path || !sessionId) throw new Error("usage: read-parse.ts DB SESSION_ID");
const db = new Database(path, { readonly: true });
const t0 = performance.now();
let bytes = 0;
let rows = 0;
for (const row of db.query<{ seq: number; kind: string; v: number; at: string; body: string }, [string]>(
  "SELECT seq, kind, v, at, body FROM facts WHERE session_id = ? ORDER BY seq",
).iterate(sessionId)) {
  bytes += row.body.length;
  rows++;
  JSON.parse(row.body);
}
const ms = performance.now() - t0;
db.close();
process.stdout.write(`${JSON.stringify({ ms, bytes, rows })}\n`);
