/** A logical dump of every table of a journal database, for "loading never writes" checks. */
import { Database } from "bun:sqlite";

export function dumpDatabase(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all();
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        db
          .query(`SELECT * FROM "${name}"`)
          .all()
          .map((row) => JSON.stringify(row))
          .sort(),
      ]),
    );
  } finally {
    db.close();
  }
}

/**
 * Resolves once the session's replay cache holds a row ending at its last finished turn: the live
 * writer stores it just after the turn's response, so a dump taken as "before" waits for it.
 */
export async function replayCacheSettled(path: string, sessionId: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const db = new Database(path, { readonly: true });
    try {
      const last = db
        .query<{ seq: number | null }, [string]>(
          "SELECT MAX(seq) AS seq FROM facts WHERE session_id = ? AND kind = 'turn_ended'",
        )
        .get(sessionId)?.seq;
      const hasTable = db.query("SELECT 1 FROM sqlite_master WHERE name = 'replay_cache'").get() !== null;
      const cached = hasTable
        ? db
            .query<{ seq: number | null }, [string]>("SELECT MAX(to_seq) AS seq FROM replay_cache WHERE session_id = ?")
            .get(sessionId)?.seq
        : null;
      if (!last || cached === last) return;
    } finally {
      db.close();
    }
    if (Date.now() > deadline) throw new Error(`the replay cache of session ${sessionId} was not stored in time`);
    await Bun.sleep(20);
  }
}
