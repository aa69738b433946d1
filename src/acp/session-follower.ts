/**
 * A session followed as it is written, by a client attached to it (`_verbatim/session/attach`):
 * its history, then each record as its writer commits it, through the projection a reload uses
 * (replay mode all along: a writer's client terminals and live-only notices are not this client's),
 * read from the journal alone (journal/follow.ts): the writer is never asked for anything, nor slowed.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { StoredFact } from "../journal/facts/index.ts";
import { FOLLOW_INTERVAL_MS, FollowCursor, followRecords } from "../journal/follow.ts";
import type { JournalStore } from "../journal/store.ts";
import type { Projector } from "../replay/project.ts";
import { turnEndUpdate } from "../replay/turn-end.ts";
import { JournalError } from "../journal/errors.ts";
import { log } from "../shared/log.ts";
import { sleep } from "../shared/sleep.ts";
import { openCallsInterrupted } from "../core/session/stored-sessions.ts";
import { readStoredSession } from "../core/session/stored-replay.ts";
import { defined } from "../shared/defined.ts";
import { OpenQuestions, type AskQuestion } from "./open-questions.ts";

/** How long a follower waits, with a turn open and nothing new, before it asks whether the writer still lives. */
export const WRITER_CHECK_MS = 500;

/** How long a follower waits before it reads again a journal it could not reach. */
const RETRY_MS = 250;

/** Where the follower's updates go: the wire implements it. */
export type FollowSink = {
  /** One update; `position` (the journal record it shows) on those sent past the history. */
  update(update: SessionUpdate, position?: number): void;
  /** A promise to wait on while the client has too much unread; undefined when it keeps up. */
  pressure(): Promise<void> | undefined;
  /** The session was rewound at `position`: the client drops the entries named. */
  rewound(retracted: { messageIds: string[]; toolCallIds: string[] }, position: number): void;
};

/** `full`: everything a reload shows; `none`: nothing before the attach (the session's state is still folded). */
export type HistoryPolicy = "full" | "none";

export type HistoryOptions = {
  policy: HistoryPolicy;
  /** Resuming after a cut: the last position the client has; only records after it are sent, each with its position. */
  replayFrom?: number;
};

/**
 * A follower between its history and its live part: its projector, where it is in the journal (the
 * cursor's last record is the position it has shown up to), the questions open.
 */
export type Following = {
  projector: Projector;
  /** The turn under way as the records so far say (its prompt received, no end nor recovery yet). */
  openTurn: string | undefined;
  questions: OpenQuestions;
  cursor: FollowCursor;
  /** Told each live record after it is sent, and the following's end (a prompt sent to the writer waits on them). */
  watchers: Set<RecordWatcher>;
};

export type RecordWatcher = { record(record: StoredFact): void; ended(reason: string): void };

const TURN_KINDS = new Set(["prompt_received", "turn_ended", "session_recovered"]);

/**
 * Folds the session's records into `projector` (fresh, in replay mode) and sends its history per
 * `options`: all of it as a reload sends it (the same pipeline, interrupted calls marked when no
 * live process holds the session), none of it, or the records after `replayFrom` one by one, each
 * with its position. Never writes. Throws the store's errors.
 */
export async function sendHistory(
  store: JournalStore,
  sessionId: string,
  projector: Projector,
  options: HistoryOptions,
  sink: FollowSink,
  ask?: AskQuestion,
): Promise<Following> {
  const full = options.policy === "full" && options.replayFrom === undefined;
  const following: Following = {
    projector,
    openTurn: undefined,
    questions: new OpenQuestions(ask),
    cursor: new FollowCursor(),
    watchers: new Set(),
  };
  const took = (record: StoredFact) => {
    following.cursor.took(record);
    note(following, record, false);
  };
  const after = options.policy === "full" ? options.replayFrom : undefined;
  await readStoredSession(store, sessionId, {
    projector,
    sink: {
      update: (update) => {
        if (full) sink.update(update);
      },
      pressure: () => sink.pressure(),
      stopIfCancelled: () => undefined,
      end: async () => undefined,
    },
    each: took,
    marks: full,
    ...defined({ upTo: after }),
  });
  // Past the history the records are projected one by one, as a reload projects them.
  projector.context.replay = true;
  if (after === undefined) return following;
  for await (const page of store.readPages(sessionId, after + 1))
    for (const record of page) {
      sendLive(projector, record, sink);
      took(record);
    }
  return following;
}

/** What a record shows past the history: its updates, each with its position, or a rewind's drops. */
function sendLive(projector: Projector, record: StoredFact, sink: FollowSink): void {
  for (const update of projector.apply(record)) sink.update(update, record.seq);
  if (record.fact.kind === "session_rewound" && record.fact.retracted) sink.rewound(record.fact.retracted, record.seq);
}

/** What a record changes for the follower beyond what it shows (the cursor has taken it). */
function note(following: Following, record: StoredFact, live: boolean): void {
  following.questions.note(record, live);
  if (live) for (const watcher of following.watchers) watcher.record(record);
  const { fact } = record;
  if (TURN_KINDS.has(fact.kind)) following.openTurn = fact.kind === "prompt_received" ? fact.turnId : undefined;
}

/** One live following: what it reads, what it sends to, and what it knows of the writer. */
type Live = {
  store: JournalStore;
  sessionId: string;
  following: Following;
  sink: FollowSink;
  /** When the last record came, and whether the writer's death was already shown. */
  quiet: { since: number; marked: boolean };
};

/**
 * Sends each record committed after the cursor's last, as it is committed, until `signal`
 * aborts; each update carries its record's position. When a turn is open, nothing new comes and
 * no live process holds the session any more (its writer died), the calls it left open are marked
 * interrupted, once, as a reload would mark them. A journal it cannot reach is read again once it
 * answers, from the last record sent. Never writes. Throws the store's other errors.
 */
export async function followLive(
  store: JournalStore,
  sessionId: string,
  following: Following,
  sink: FollowSink,
  signal: AbortSignal,
): Promise<void> {
  const live: Live = { store, sessionId, following, sink, quiet: { since: Date.now(), marked: false } };
  const stop = new AbortController();
  const watcher = watchWriter(live, AbortSignal.any([signal, stop.signal]));
  following.questions.askOpen();
  try {
    while (!signal.aborted) {
      try {
        await followFrom(live, signal);
      } catch (error) {
        // A journal it cannot reach now (a server restarting, a connection cut) is read again
        // from the last record it has, once it answers; anything else ends the following.
        if (!(error instanceof JournalError) || error.code !== "unreachable") throw error;
        log.debug(`following ${sessionId}: the journal is unreachable; trying again`, error);
        await sleep(RETRY_MS, signal);
      }
    }
  } finally {
    stop.abort();
    following.questions.withdrawAll();
    for (const waiting of following.watchers) waiting.ended("the following ended");
    await watcher;
  }
}

async function followFrom({ store, sessionId, following, sink, quiet }: Live, signal: AbortSignal): Promise<void> {
  // followRecords moves the cursor past each record it yields.
  const records = followRecords(store, sessionId, following.cursor, { signal, intervalMs: FOLLOW_INTERVAL_MS });
  for await (const page of records) {
    for (const record of page) {
      sendLive(following.projector, record, sink);
      note(following, record, true);
    }
    quiet.since = Date.now();
    quiet.marked = false;
    await sink.pressure();
  }
}

async function watchWriter({ store, sessionId, following, sink, quiet }: Live, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    await sleep(WRITER_CHECK_MS, signal);
    const turnId = following.openTurn;
    if (signal.aborted || quiet.marked || !turnId) continue;
    if (Date.now() - quiet.since < WRITER_CHECK_MS) continue;
    // A failed look is the next look's to repeat: the records' reading reports the store's failures.
    if (!(await openCallsInterrupted(store, sessionId).catch(() => false))) continue;
    quiet.marked = true;
    following.questions.withdrawAll();
    for (const waiting of following.watchers) waiting.ended("the process running the session ended during the turn");
    for (const mark of following.projector.interruptionMarks()) sink.update(mark, following.cursor.last);
    sink.update(turnEndUpdate({ turnId, ending: "interrupted" }), following.cursor.last);
  }
}
