/**
 * The PostgreSQL journal's leases (postgres-store.ts says the fencing): the sessions this process
 * holds with the epoch of each, their advisory locks on a connection of their own, and who holds
 * a session elsewhere. A takeover moves the epoch on; a lock connection that closed has each
 * session locked again, kept only if nobody took it over meanwhile.
 */
import type { SQL } from "bun";
import { heldElsewhere } from "./postgres-errors.ts";
import type { PostgresLayout } from "./postgres-layout.ts";
import { AdvisoryLocks, lockName } from "./postgres-locks.ts";
import type { PostgresTarget } from "./postgres-url.ts";
import { thisProcess } from "./process-identity.ts";
import type { LeaseHolder, LeaseStore } from "./store.ts";

type Guard = <T>(sessionId: string | undefined, run: () => Promise<T>) => Promise<T>;

export class PostgresLeases implements LeaseStore {
  /** Sessions this process leases, with the epoch of its lease. */
  readonly #held = new Map<string, number>();
  /** This process's advisory locks, on a connection of their own. */
  readonly #locks: AdvisoryLocks;
  readonly #owner = thisProcess();

  constructor(
    target: PostgresTarget,
    private readonly sql: SQL,
    private readonly layout: PostgresLayout,
    private readonly guard: Guard,
  ) {
    this.#locks = new AdvisoryLocks(target, () => this.#held.size > 0);
  }

  get owner(): LeaseHolder {
    return this.#owner;
  }

  /** The epoch of this process's lease of the session, if it holds it. */
  epochOf(sessionId: string): number | undefined {
    return this.#held.get(sessionId);
  }

  /** The epoch an append checks: the session locked again first if the lock connection closed. */
  async appendEpoch(sessionId: string): Promise<number | undefined> {
    if (this.#locks.lost) await this.#relock();
    return this.#held.get(sessionId);
  }

  /** The session was taken over (an append found another epoch): it is no longer this process's. */
  lost(sessionId: string): void {
    this.#held.delete(sessionId);
  }

  /** Locks a new session, runs `insert` (its rows and its lease, epoch 1), and holds it; the lock is given back if the insert fails. */
  async created(sessionId: string, insert: () => Promise<unknown>): Promise<void> {
    await this.#lock(sessionId);
    await insert().catch(async (error: unknown) => {
      await this.#locks.give(sessionId);
      throw error;
    });
    this.#held.set(sessionId, 1);
  }

  /** The session was deleted: its lock is given back if this process held it. */
  async deleted(sessionId: string): Promise<void> {
    if (this.#held.delete(sessionId)) await this.#locks.give(sessionId);
  }

  async acquire(sessionId: string): Promise<void> {
    if (this.#locks.lost) await this.#relock();
    if (this.#held.has(sessionId)) return;
    await this.layout.ensure();
    await this.#lock(sessionId);
    // A takeover: the epoch moves on, so that whoever held the session before can append nothing more.
    const [lease] = (await this.guard(
      sessionId,
      () => this.sql`
      INSERT INTO verbatim.leases (session_id, host, pid, start_time, epoch)
      VALUES (${sessionId}, ${this.#owner.host}, ${this.#owner.pid}, ${this.#owner.startTime}, 1)
      ON CONFLICT (session_id) DO UPDATE SET host = excluded.host, pid = excluded.pid, start_time = excluded.start_time, epoch = verbatim.leases.epoch + 1
      RETURNING epoch::float8 AS epoch, set_config('synchronous_commit', CASE WHEN current_setting('synchronous_commit') = 'off'
        THEN 'on' ELSE current_setting('synchronous_commit') END, true) AS commit_mode`,
    )) as { epoch: number }[];
    this.#held.set(sessionId, lease!.epoch);
  }

  async release(sessionId: string): Promise<void> {
    const epoch = this.#held.get(sessionId);
    if (epoch === undefined) return;
    this.#held.delete(sessionId);
    // The lease row stays, its epoch moved on and no holder named: epochs only ever grow.
    await this.guard(
      sessionId,
      () => this.sql`
      UPDATE verbatim.leases SET epoch = epoch + 1, host = '', pid = 0, start_time = ''
      WHERE session_id = ${sessionId} AND epoch = ${epoch}`,
    );
    await this.#locks.give(sessionId);
  }

  async holder(sessionId: string): Promise<LeaseHolder | undefined> {
    if (this.#held.has(sessionId)) return this.#owner;
    if ((await this.layout.read()) === undefined) return undefined;
    return this.guard(sessionId, () => this.liveHolder(this.sql, sessionId));
  }

  async close(): Promise<void> {
    this.#held.clear();
    await this.#locks.close();
  }

  /** The named holder of a session's lease, if its advisory lock is held right now (by a live connection). */
  async liveHolder(sql: SQL, sessionId: string): Promise<LeaseHolder | undefined> {
    const [row] = (await sql`
      SELECT l.host, l.pid, l.start_time FROM verbatim.leases l
      WHERE l.session_id = ${sessionId} AND l.pid <> 0 AND EXISTS (
        SELECT 1 FROM pg_locks k
        WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 1
          AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND ((k.classid::bigint << 32) | k.objid::bigint) = hashtextextended(${lockName(sessionId)}, 0)
      )`) as { host: string; pid: number; start_time: string }[];
    return row ? { pid: row.pid, host: row.host, startTime: row.start_time } : undefined;
  }

  /** Takes the session's advisory lock, or throws `busy` naming who holds it (see AdvisoryLocks.take). */
  async #lock(sessionId: string): Promise<void> {
    if (!(await this.guard(sessionId, () => this.#locks.take(sessionId)))) {
      throw heldElsewhere(sessionId, await this.guard(sessionId, () => this.liveHolder(this.sql, sessionId)));
    }
  }

  /**
   * The lock connection closed (the server restarted, or ended it): its locks are gone. Each
   * session is locked again on a new connection, and kept only if its lease still carries this
   * writer's epoch (nobody took it over meanwhile); one taken over is given up. While the server
   * is out of reach the sessions stay this writer's, to lock again at its next append.
   */
  async #relock(): Promise<void> {
    await this.#locks.reset();
    try {
      for (const [sessionId, epoch] of [...this.#held]) {
        if (!(await this.guard(sessionId, () => this.#locks.take(sessionId)))) {
          this.#held.delete(sessionId);
          continue;
        }
        const [lease] = (await this.guard(
          sessionId,
          () => this.sql`SELECT 1 AS ok FROM verbatim.leases WHERE session_id = ${sessionId} AND epoch = ${epoch}`,
        )) as { ok: number }[];
        if (!lease) {
          this.#held.delete(sessionId);
          await this.#locks.give(sessionId);
        }
      }
      this.#locks.relocked(true);
    } catch (error) {
      await this.#locks.reset();
      this.#locks.relocked(false);
      throw error;
    }
  }
}
