/**
 * This process's session locks on PostgreSQL: session-scoped advisory locks held on a connection
 * of their own, so that they last exactly as long as that connection (a killed process's drops,
 * and frees them). When that connection closes the locks are gone, and `lost` says so until the
 * store has locked its sessions again (`relocked`).
 */
import { SQL } from "bun";
import type { PostgresTarget } from "./postgres-url.ts";

/** How long taking a session waits for a holder that is going (see `take`). */
const LOCK_WAIT_MS = 2000;
const CONNECT_TIMEOUT_S = 10;

/** The name a session's advisory lock is keyed by (hashed to 64 bits by the server). */
export const lockName = (sessionId: string) => `verbatim.session:${sessionId}`;

export class AdvisoryLocks {
  #connection: SQL | undefined;
  #lost = false;

  /** `holding`: whether the store holds any session (a connection closing then loses locks). */
  constructor(
    private readonly target: PostgresTarget,
    private readonly holding: () => boolean,
  ) {}

  /** True when the lock connection closed while sessions were held. */
  get lost(): boolean {
    return this.#lost;
  }

  /**
   * Takes the session's lock: true once it is this process's, false when another connection
   * holds it past a short wait (a process killed a moment ago holds its locks until the server
   * has noticed its connection closed and ended its backend). Rejects with the driver's error.
   */
  async take(sessionId: string): Promise<boolean> {
    const lock = this.#open();
    await lock`SELECT set_config('lock_timeout', ${`${LOCK_WAIT_MS}ms`}, false)`;
    try {
      await lock`SELECT pg_advisory_lock(hashtextextended(${lockName(sessionId)}, 0))`;
      return true;
    } catch (error) {
      if ((error as { errno?: string }).errno === "55P03") return false;
      throw error;
    }
  }

  /** Gives the session's lock up (nothing to do once the connection holding it is gone). */
  async give(sessionId: string): Promise<void> {
    const lock = this.#connection;
    if (!lock || this.#lost) return;
    await lock`SELECT pg_advisory_unlock(hashtextextended(${lockName(sessionId)}, 0))`.catch(() => undefined);
  }

  /** Drops the lock connection (its locks with it): the next `take` opens a new one. */
  async reset(): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    await connection?.close({ timeout: 0 }).catch(() => undefined);
  }

  /** The store locked its sessions again after a loss, or must try again (`false`). */
  relocked(done: boolean): void {
    this.#lost = !done;
  }

  async close(): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    await connection?.close({ timeout: 1 }).catch(() => undefined);
  }

  #open(): SQL {
    if (this.#connection) return this.#connection;
    const connection: SQL = new SQL({
      url: this.target.url,
      max: 1,
      idleTimeout: 0,
      connectionTimeout: CONNECT_TIMEOUT_S,
      tls: this.target.sslMode,
      onclose: () => {
        // Only the current lock connection's loss matters (one given up on purpose does not).
        if (this.#connection === connection && this.holding()) this.#lost = true;
      },
    });
    this.#connection = connection;
    return connection;
  }
}
