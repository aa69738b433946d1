/**
 * The SQLite journal's leases (sqlite-store.ts): one row per session naming the process that
 * writes it (pid and start time: a journal file is this machine's), checked in the same
 * transaction as every write that needs it, taken over from a process that died. Deleting a
 * session (and its subagents' sessions) is refused while another live process holds one of them.
 */
import type { Database } from "bun:sqlite";
import { busy } from "./errors.ts";
import { isAlive, thisProcess, type ProcessIdentity } from "./process-identity.ts";
import { deleteRows } from "./sqlite-replay-cache.ts";
import { leaseOf } from "./sqlite-reads.ts";
import { deleteSideRows } from "./sqlite-side-tables.ts";
import type { Writer } from "./sqlite-writer.ts";
import type { LeaseHolder } from "./store.ts";

type LeaseRow = { pid: number; start_time: string };

const owns = (lease: LeaseRow, owner: ProcessIdentity) =>
  lease.pid === owner.pid && lease.start_time === owner.startTime;

const ownsOrDead = (lease: LeaseRow, owner: ProcessIdentity) =>
  owns(lease, owner) || !isAlive({ pid: lease.pid, startTime: lease.start_time });

/** Throws `busy` unless `owner` holds the session's lease (inside the write's transaction). */
export function checkHeld(w: Writer, sessionId: string, owner: ProcessIdentity): void {
  const lease = w.selectLease.get(sessionId);
  if (!lease || !owns(lease, owner)) throw busy(sessionId, lease ? { pid: lease.pid } : undefined);
}

/** Takes the session's lease for `owner`, or throws `busy` while another live process holds it. */
export function acquireIn(w: Writer, sessionId: string, owner: ProcessIdentity): void {
  w.db
    .transaction(() => {
      const lease = w.selectLease.get(sessionId);
      if (lease && !ownsOrDead(lease, owner)) throw busy(sessionId, { pid: lease.pid });
      w.upsertLease.run(sessionId, owner.pid, owner.startTime);
    })
    .immediate();
}

export function releaseIn(w: Writer, sessionId: string, owner: ProcessIdentity): void {
  w.db.run("DELETE FROM leases WHERE session_id = ? AND pid = ? AND start_time = ?", [
    sessionId,
    owner.pid,
    owner.startTime,
  ]);
}

/** The live process holding the session's lease, if any. */
export function holderIn(db: Database, sessionId: string): LeaseHolder | undefined {
  const lease = leaseOf(db, sessionId);
  if (!lease || !isAlive({ pid: lease.pid, startTime: lease.start_time })) return undefined;
  // A SQLite journal is this machine's: its lease holder runs here.
  return { host: thisProcess().host, pid: lease.pid, startTime: lease.start_time };
}

/** Deletes a session with its blobs and its subagents' child sessions, all or nothing; whether it was there. */
export function deleteTreeIn(w: Writer, sessionId: string, owner: ProcessIdentity): boolean {
  return w.db
    .transaction(() => {
      const doomed = [sessionId];
      for (let i = 0; i < doomed.length; i++) {
        const children = w.db
          .query<{ session_id: string }, [string]>("SELECT session_id FROM sessions WHERE parent_session_id = ?")
          .all(doomed[i]!);
        doomed.push(...children.map((c) => c.session_id));
      }
      for (const id of doomed) {
        const lease = w.selectLease.get(id);
        if (lease && !ownsOrDead(lease, owner)) throw busy(id, { pid: lease.pid });
      }
      let deleted = false;
      for (const id of doomed) {
        w.db.run("INSERT OR IGNORE INTO deleting (session_id) VALUES (?)", [id]);
        w.db.run("DELETE FROM facts WHERE session_id = ?", [id]);
        w.db.run("DELETE FROM blobs WHERE session_id = ?", [id]);
        deleteRows(w.db, id);
        deleteSideRows(w.db, id);
        w.db.run("DELETE FROM deleting WHERE session_id = ?", [id]);
        w.db.run("DELETE FROM leases WHERE session_id = ?", [id]);
        const gone = w.db.run("DELETE FROM sessions WHERE session_id = ?", [id]).changes > 0;
        if (id === sessionId) deleted = gone;
      }
      return deleted;
    })
    .immediate();
}
