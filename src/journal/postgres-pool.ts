/**
 * The store's connection pool, and one opened early. A fresh agent process pays PostgreSQL's
 * login (TCP, startup, SCRAM) before its first statement: 10 to 30 ms, most of what a small
 * session's reopen costs beyond SQLite's. An agent whose journal is on a server named by
 * VERBATIM_JOURNAL opens its pool as it starts, before the protocol and the engine load, and the
 * first store on that URL takes it over, login done. Opening early sends one `SELECT 1`, writes
 * nothing, reports nothing (a failure is met and reported by the store's first statement), and
 * never throws.
 */
import { SQL } from "bun";
import { isPostgresUrl, parsePostgresUrl, type PostgresTarget } from "./postgres-url.ts";

const CONNECT_TIMEOUT_S = 10;

/** Connections a store's pool holds (the advisory locks have one of their own). */
export const DEFAULT_POOL_SIZE = 4;

/** The pool a store on `target` uses, with at most `max` connections. */
export function openPool(target: PostgresTarget, max: number): SQL {
  return new SQL({ url: target.url, max, connectionTimeout: CONNECT_TIMEOUT_S, tls: target.sslMode });
}

let early: { target: PostgresTarget; max: number; sql: SQL } | undefined;

/** Opens the pool for the journal `url` names, if it names a server, and starts its login. */
export function openEarly(url: string | undefined, max = DEFAULT_POOL_SIZE): void {
  if (url === undefined || !isPostgresUrl(url.trim()) || early) return;
  try {
    const target = parsePostgresUrl(url.trim());
    const sql = openPool(target, max);
    sql`SELECT 1`.catch(() => undefined);
    early = { target, max, sql };
  } catch {
    // A URL that does not parse is the store's to report.
  }
}

/** The pool opened early for this target and size, once: the next store opens its own. */
export function takeEarly(target: PostgresTarget, max: number): SQL | undefined {
  const taken = early;
  if (!taken || taken.target.url !== target.url || taken.max !== max || taken.target.sslMode !== target.sslMode) return;
  early = undefined;
  return taken.sql;
}
