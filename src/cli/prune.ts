/**
 * `verbatim prune --older-than AGE [--dry-run]`: deletes whole sessions whose last record is older
 * than AGE: each with its facts, blobs, replay cache rows and subagent sessions, through the
 * store's one delete path (which refuses a session a live process holds: such a session is kept
 * and named). On SQLite the room they took is then given back to the file system (VACUUM);
 * PostgreSQL's autovacuum reuses it. `--dry-run` says what would go and deletes nothing.
 */
import { engineDeps } from "../core/engine-deps.ts";
import { deleteStoredSession } from "../core/session/stored-sessions.ts";
import { JournalError } from "../journal/errors.ts";
import type { SessionRow, FactStore } from "../journal/store.ts";
import { log } from "../shared/log.ts";
import { visible } from "../view/visible-text.ts";
import { byteSize } from "./byte-size.ts";
import { reportError, usageError } from "./cli-error.ts";
import { checkJournalPlace } from "./journal-access.ts";

const UNIT_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `30d`, `12h`, `2w`: how long ago, in milliseconds; a usage error for anything else. */
export function parseAge(given: string): number {
  const match = /^(\d+)([hdw])$/.exec(given.trim());
  if (!match) throw usageError(`--older-than takes an age such as 30d, 12h or 2w (hours, days, weeks), not "${given}"`);
  return Number(match[1]) * (UNIT_MS[match[2] as string] as number);
}

export type PruneOptions = { olderThan: string; dryRun: boolean; now?: number };

export async function pruneCommand(options: PruneOptions): Promise<number> {
  let journal: string | undefined;
  try {
    const before = new Date((options.now ?? Date.now()) - parseAge(options.olderThan)).toISOString();
    journal = checkJournalPlace(process.env, { write: !options.dryRun });
    const deps = engineDeps();
    try {
      return await prune(deps, before, options.dryRun);
    } finally {
      await deps.store.close();
    }
  } catch (error) {
    return reportError(error, { json: false, ...(journal ? { context: { journal } } : {}) });
  }
}

const out = (line: string) => process.stdout.write(`${line}\n`);

async function prune(deps: ReturnType<typeof engineDeps>, before: string, dryRun: boolean): Promise<number> {
  const { store } = deps;
  const startBytes = await store.journalBytes();
  let gone = 0;
  let goneBytes = 0;
  for (const row of await store.idleSince(before)) {
    const bytes = await treeBytes(store, row.sessionId);
    const holder = await store.holder(row.sessionId);
    if (holder) {
      out(`kept    ${row.sessionId}: pid ${holder.pid}${holder.host ? ` on ${visible(holder.host)}` : ""} holds it`);
      continue;
    }
    if (!dryRun) {
      try {
        if (!(await deleteStoredSession(deps, row.sessionId))) continue;
      } catch (error) {
        if (!(error instanceof JournalError) || error.code !== "busy") throw error;
        out(`kept    ${row.sessionId}: ${visible(error.message)}`);
        continue;
      }
    }
    out(`${dryRun ? "would delete" : "deleted"} ${line(row, bytes)}`);
    gone++;
    goneBytes += bytes;
  }
  const sessions = `${gone} session${gone === 1 ? "" : "s"}`;
  if (dryRun) {
    out(
      `${sessions} last written before ${before} would be deleted (${byteSize(goneBytes)} of records); nothing was deleted`,
    );
    return 0;
  }
  if (gone > 0 && store.reclaimSpace) {
    try {
      await store.reclaimSpace();
    } catch (error) {
      // The sessions are gone; only the file's room is not given back yet (the next prune tries again).
      log.warn("could not give the journal's free room back to the file system", error);
    }
  }
  const endBytes = await store.journalBytes();
  out(
    `${sessions} last written before ${before} deleted (${byteSize(goneBytes)} of records); the journal went from ${byteSize(startBytes)} to ${byteSize(endBytes)}`,
  );
  return 0;
}

/** The session's bytes with its subagent sessions', and theirs. */
async function treeBytes(store: FactStore, sessionId: string): Promise<number> {
  let bytes = await store.sessionBytes(sessionId);
  for (const child of await store.children(sessionId)) bytes += await treeBytes(store, child.sessionId);
  return bytes;
}

const line = (row: SessionRow, bytes: number) =>
  `${row.sessionId}  ${row.updatedAt.slice(0, 10)}  ${byteSize(bytes).padStart(10)}  ${visible(
    row.title ?? "(untitled)",
  )
    .replaceAll("\n", " ")
    .slice(0, 60)}`;
