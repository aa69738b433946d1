/**
 * The journal's storage interface. SQLite implements it locally; PostgreSQL holds the same
 * records on a server for a team sharing sessions across machines. Every method is asynchronous
 * (a server answers over a connection): a promise that resolves means the work is committed.
 */
import type { Fact, FactKind, FactOf, StoredFact } from "./facts/index.ts";
import type { ReplayCacheStore } from "./replay-cache.ts";
import type { AnswerClaim } from "./answer-claims.ts";
import type { InboxKind, InboxRequest } from "./session-inbox.ts";
import type { HostProcess } from "./process-identity.ts";
import type { Attachment } from "./session-attachments.ts";
import type { JournalWatch } from "./journal-watch.ts";

/** A job's start with no end recorded after it, and the session it is in. */
export type UnendedJob = { sessionId: string; started: FactOf<"job_started"> };

/** Records `fromSeq` to `toSeq` of a session, both included. */
export type SeqRange = { fromSeq: number; toSeq: number };

export type SessionRow = {
  sessionId: string;
  cwd: string;
  additionalDirectories: string[];
  title?: string;
  createdAt: string;
  updatedAt: string;
  /** A subagent's session: the session whose Task call started it (hidden from lists, deleted with it). */
  parentSessionId?: string;
  /** A fork: the session it was forked from and that session's last record then. Nothing else follows from it. */
  forkOf?: { sessionId: string; seq: number };
};

/**
 * Top-level sessions that received a prompt, newest first by last activity as of `asOf` (default:
 * now): a session's `updatedAt` in the list is the time of its last record at or before `asOf`,
 * and a session created after `asOf` is not listed. Paging with the same `asOf` and the last row's
 * position as `after` repeats no session and skips none, whatever happens meanwhile.
 */
export type ListQuery = {
  cwd?: string;
  /** Only sessions whose start recorded this git remote and path inside the checkout (see `sessionOrigin`). */
  repository?: RepositoryKey;
  /** Leaves out the sessions of this directory. */
  exceptCwd?: string;
  limit: number;
  asOf?: string;
  after?: { updatedAt: string; sessionId: string };
};

/** A place in a repository, as any checkout of it names it: its normalized remote and the path inside it. */
export type RepositoryKey = { remote: string; innerPath: string };

/**
 * Durability. `normal`: an append that resolved survives any kill of the verbatim process; a
 * crash of what holds the journal (the machine, for SQLite; the server, for PostgreSQL) may lose
 * the latest appends, leaving a consistent prefix. `strict`: each append also waits for the
 * journal's flush to disk (SQLite's fsync, the PostgreSQL server's WAL flush).
 */
export type Durability = "normal" | "strict";

/**
 * The process holding a session's lease: its machine, pid and start time (process-identity.ts),
 * so that "is this holder me?" is one check (`isThisProcess`) on every store.
 */
export type LeaseHolder = HostProcess;

/**
 * Facts and reads: a session's records and its row, written by the process holding its lease
 * (LeaseStore) and read by anyone; a session's creation, fork, import and deletion; what the
 * journal takes on disk.
 */
export interface FactStore {
  /** Records a new session with its first fact and takes its lease. */
  create(row: SessionRow, first: Fact): Promise<StoredFact>;
  /**
   * Appends one fact at `seq` (the expected next sequence number). Rejects with `busy` when
   * another live process holds the session, `stale_write` when `seq` is not the next one.
   */
  append(sessionId: string, seq: number, fact: Fact, at: string): Promise<StoredFact>;
  /**
   * Appends facts at `firstSeq`, `firstSeq + 1`, ... in one transaction: all of them, or none
   * (with the same errors as `append`).
   */
  appendMany(sessionId: string, firstSeq: number, facts: readonly { fact: Fact; at: string }[]): Promise<StoredFact[]>;
  /**
   * Records `row` as a new session (`row.forkOf` names the source and its last record to copy)
   * whose journal is a copy of the source's records 1..`forkOf.seq` (same times, same facts, their
   * payloads too) followed by `last`, all in one transaction. Takes no lease: the fork is written
   * like a loaded session, once its lease is taken.
   */
  fork(row: SessionRow & { forkOf: { sessionId: string; seq: number } }, last: Fact): Promise<StoredFact>;
  /**
   * Records `row` as a new session whose journal is `records`, numbered from 1 with the times
   * given, their payloads too, all in one transaction: all of it, or nothing. The row's
   * `updatedAt` and title follow the records. Rejects with `exists` when the session id is in the
   * journal already. Takes no lease (an imported session is written like a loaded one).
   */
  importSession(row: SessionRow, records: readonly { fact: Fact; at: string }[]): Promise<void>;
  /**
   * Reads a session's facts in order from `fromSeq` (default 1), validated and migrated, in pages
   * (memory holds one page at a time, however long the session). Never writes. Rejects with
   * `not_found` for a session with no records.
   */
  readPages(sessionId: string, fromSeq?: number): AsyncIterable<readonly StoredFact[]>;
  info(sessionId: string): Promise<SessionRow | undefined>;
  /**
   * The number of the session's last record (0 for a session with none). Never writes. A writer
   * asks it between turns: a PostgreSQL server that crashed may have lost appends it had
   * acknowledged (asynchronous commit), and the writer then goes on from what it kept.
   */
  lastSeq(sessionId: string): Promise<number>;
  /** The session's latest record of one of these kinds, if any. Never writes. */
  lastOf(sessionId: string, kinds: readonly FactKind[]): Promise<StoredFact | undefined>;
  /**
   * The session's authority records (facts/authority.ts: what it may do) up to `upToSeq`, in
   * order, validated and migrated: few, and indexed, so a load restored from the replay cache
   * takes them from the facts. Never writes; rejects with `not_found` where no journal exists.
   */
  authority(sessionId: string, upToSeq: number): Promise<StoredFact[]>;
  /**
   * How many of the session's records are of these kinds (0 for a session with none), only those
   * from `within.fromSeq` to `within.toSeq` (both included) when it is given. Never writes.
   */
  countOf(sessionId: string, kinds: readonly FactKind[], within?: SeqRange): Promise<number>;
  /** The subagent sessions whose row names this session as their parent, oldest first. Never writes. */
  children(sessionId: string): Promise<SessionRow[]>;
  list(query: ListQuery): Promise<SessionRow[]>;
  /** Deletes a session and all its facts (and its replay cache): the one exception to append-only. */
  delete(sessionId: string): Promise<boolean>;
  /**
   * Bytes the journal takes where it is kept: SQLite's files (the database and its log),
   * PostgreSQL's tables with their indexes. Never writes.
   */
  journalBytes(): Promise<number>;
  /** Bytes the session's own records take: its facts, its blobs, its replay cache (not its subagents'). Never writes. */
  sessionBytes(sessionId: string): Promise<number>;
  /** Top-level sessions whose last record is older than `before` (an ISO time), oldest first. Never writes. */
  idleSince(before: string): Promise<SessionRow[]>;
  /**
   * Every background job a session started and did not record ended, across the journal (a fork
   * or an import owns none of the jobs of the history it began with). Never writes.
   */
  unendedJobs(): Promise<UnendedJob[]>;
  /**
   * Gives the room deleted sessions left back to the file system, where the store can: SQLite
   * rewrites its file (VACUUM). PostgreSQL has none: its autovacuum reuses the room.
   */
  reclaimSpace?(): Promise<void>;
  /**
   * Gets ready to read (opens the journal, if there is one, for reading, and may prepare the reads
   * a load makes) so that the first read does not wait for it. Never writes, never throws: a
   * problem is reported by the read that meets it.
   */
  warm(): void;
  close(): Promise<void>;
}

/** Leases: which process writes a session (one at a time, across machines on PostgreSQL). */
export interface LeaseStore {
  /** Takes the session's lease for this process, or rejects with `busy` while a live owner holds it. */
  acquire(sessionId: string): Promise<void>;
  release(sessionId: string): Promise<void>;
  /** The live process holding the session's lease, if any. */
  holder(sessionId: string): Promise<LeaseHolder | undefined>;
}

/**
 * Claims and inbox: what the clients attached to a session from other processes ask of its writer
 * (answer claims, requests in its inbox) and who is attached (attachment rows). Rows beside the
 * facts, never facts; none needs a lease.
 */
export interface ControllerStore {
  /**
   * Claims `claim` as the answer to the session's open question `claim.requestId`, unless a claim
   * came first (compare-and-set, across processes and machines): resolves with the claim that
   * holds, this one or the earlier one. Needs no lease (answer-claims.ts).
   */
  claimAnswer(sessionId: string, claim: AnswerClaim): Promise<AnswerClaim>;
  /** The claim that holds for the question, if any. Never writes. */
  answerClaimOf(sessionId: string, requestId: string): Promise<AnswerClaim | undefined>;
  /**
   * Puts a controller's request in the session's inbox, for its writer (session-inbox.ts). Needs no
   * lease. Rejects with `inbox_full` when INBOX_LIMIT requests wait already.
   */
  sendToWriter(sessionId: string, request: InboxRequest): Promise<void>;
  /** Writes a controller's attachment row, or refreshes it (session-attachments.ts). Needs no lease. */
  keepAttachment(sessionId: string, attachment: Attachment): Promise<void>;
  /** Deletes a controller's attachment row (it detached). */
  dropAttachment(sessionId: string, attachmentId: string): Promise<void>;
  /** The attachment, if its row is there and was refreshed within ATTACHMENT_TTL_MS. Never writes. */
  liveAttachment(sessionId: string, attachmentId: string): Promise<Attachment | undefined>;
  /** Whether any controller's attachment row of the session lives (refreshed within ATTACHMENT_TTL_MS). Never writes. */
  controllerAttached(sessionId: string): Promise<boolean>;
  /**
   * Takes the oldest request of `kinds` in the session's inbox not taken yet, if any: each is
   * taken once, by one process. The writer's call.
   */
  takeFromInbox(sessionId: string, kinds: readonly InboxKind[]): Promise<InboxRequest | undefined>;
}

/**
 * The whole journal: each caller names the roles it uses (FactStore, LeaseStore, ControllerStore,
 * the replay cache's ReplayCacheStore: derived data kept beside the facts, never a fact, never
 * exported) and the watcher (journal-watch.ts) when it waits for commits.
 */
export interface JournalStore extends FactStore, LeaseStore, ControllerStore, ReplayCacheStore, JournalWatch {}

/** What both stores share of appending: one fact is a batch of one (`appendMany` states the promises). */
export abstract class AppendsInBatches {
  abstract appendMany(
    sessionId: string,
    firstSeq: number,
    facts: readonly { fact: Fact; at: string }[],
  ): Promise<StoredFact[]>;

  async append(sessionId: string, seq: number, fact: Fact, at: string): Promise<StoredFact> {
    const [record] = await this.appendMany(sessionId, seq, [{ fact, at }]);
    return record as StoredFact;
  }
}

/** Every record of a session from `fromSeq`, one at a time (for callers that do not care about pages). */
export async function* readRecords(
  store: Pick<FactStore, "readPages">,
  sessionId: string,
  fromSeq = 1,
): AsyncGenerator<StoredFact> {
  for await (const page of store.readPages(sessionId, fromSeq)) yield* page;
}

/** Every record of a session, in memory: for short sessions and tests. */
export async function readAll(
  store: Pick<FactStore, "readPages">,
  sessionId: string,
  fromSeq = 1,
): Promise<StoredFact[]> {
  const all: StoredFact[] = [];
  for await (const page of store.readPages(sessionId, fromSeq)) all.push(...page);
  return all;
}

/** An imported session's title and last activity, as its records say. */
export function importedRow(
  row: SessionRow,
  records: readonly { fact: Fact; at: string }[],
): { title: string | undefined; updatedAt: string } {
  let title = row.title;
  for (const { fact } of records) if (fact.kind === "title_set") title = fact.title;
  return { title, updatedAt: records[records.length - 1]?.at ?? row.updatedAt };
}
