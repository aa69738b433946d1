/**
 * A session followed as it is written, by a client attached to it (`_verbatim/session/attach`) or
 * by `verbatim watch`: its history, read as a load reads it (core/session/stored-replay.ts), then
 * each record as its writer commits it, through the projection a reload uses (replay mode all
 * along: a writer's client terminals and live-only notices are not this client's), read from the
 * journal alone (journal/follow.ts): the writer is never asked for anything, nor slowed. What the
 * session's state is (the turn running, the questions open, which prompt became which turn) is
 * the one state fold's (replay/state.ts). When the writer dies during a turn, the calls it left
 * open are marked interrupted, as a reload marks them. Everything goes to the one sink a load
 * replays through (core/session/replay-sink.ts).
 */
import type { StoredFact } from "../../journal/facts/index.ts";
import { FollowCursor } from "../../journal/follow.ts";
import type { FollowStore } from "./follow-store.ts";
import type { Projector } from "../../replay/project.ts";
import { SessionStateFold } from "../../replay/state.ts";
import { turnEndUpdate } from "../../replay/turn-end.ts";
import { defined } from "../../shared/defined.ts";
import { sleep } from "../../shared/sleep.ts";
import type { ReplaySink } from "../session/replay-sink.ts";
import { readStoredSession } from "../session/stored-replay.ts";
import { openCallsInterrupted } from "../session/stored-sessions.ts";
import { type AskQuestion, OpenQuestions } from "./open-questions.ts";
import { newRecords } from "./new-records.ts";

/** How long a follower waits, with a turn open and nothing new, before it asks whether the writer still lives. */
export const WRITER_CHECK_MS = 500;

/** `full`: everything a reload shows; `none`: nothing before the attach (the session's state is still folded). */
export type HistoryPolicy = "full" | "none";

export type HistoryOptions = {
  policy: HistoryPolicy;
  /** Resuming after a cut: the last position the client has; only records after it are sent, each with its position. */
  replayFrom?: number;
};

/**
 * A follower between its history and its live part: its projector, the session's state as the
 * records so far fold it, where it is in the journal (the cursor's last record is the position it
 * has shown up to), the questions asked.
 */
export type Following = {
  projector: Projector;
  state: SessionStateFold;
  questions: OpenQuestions;
  cursor: FollowCursor;
  /** Told each live record after it is sent and folded, and the following's end (a prompt sent to the writer waits on them). */
  watchers: Set<RecordWatcher>;
  /** Whether the history ended with the open calls marked interrupted (no live process held the session then). */
  marked: boolean;
};

export type RecordWatcher = { record(record: StoredFact): void; ended(reason: string): void };

/**
 * Folds the session's records into `projector` (fresh, in replay mode) and sends its history per
 * `options`: all of it as a reload sends it (the same reading, interrupted calls marked when no
 * live process holds the session), none of it, or the records after `replayFrom` one by one, each
 * with its position. Never writes. Throws the store's errors, and the sink's once it is cancelled.
 */
export async function sendHistory(
  store: FollowStore,
  sessionId: string,
  projector: Projector,
  options: HistoryOptions,
  sink: ReplaySink,
  ask?: AskQuestion,
): Promise<Following> {
  const full = options.policy === "full" && options.replayFrom === undefined;
  const state = new SessionStateFold();
  const following: Following = {
    projector,
    state,
    questions: new OpenQuestions(state, ask),
    cursor: new FollowCursor(),
    watchers: new Set(),
    marked: false,
  };
  const took = (record: StoredFact) => {
    following.cursor.took(record);
    state.apply(record.fact, record.seq);
  };
  const after = options.policy === "full" ? options.replayFrom : undefined;
  const quiet: ReplaySink = { ...sink, update: () => undefined, end: async () => undefined };
  const interrupted = await readStoredSession(store, sessionId, {
    projector,
    sink: full ? sink : quiet,
    each: took,
    marks: full,
    ...defined({ upTo: after }),
  });
  following.marked = full && interrupted;
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
function sendLive(projector: Projector, record: StoredFact, sink: ReplaySink): void {
  for (const update of projector.apply(record)) sink.update(update, record.seq);
  if (record.fact.kind === "session_rewound" && record.fact.retracted)
    sink.rewound?.(record.fact.retracted, record.seq);
}

/** When the last record came, and whether the writer's death was already shown. */
type Quiet = { since: number; marked: boolean };

/**
 * Sends each record committed after the cursor's last, as it is committed, until `signal`
 * aborts; each update carries its record's position. When a turn is open, nothing new comes and
 * no live process holds the session any more (its writer died), the calls it left open are marked
 * interrupted, once, as a reload would mark them, and the watchers are told. A journal it cannot
 * reach is read again once it answers, from the last record sent. Never writes. Throws the store's
 * other errors.
 */
export async function followLive(
  store: FollowStore,
  sessionId: string,
  following: Following,
  sink: ReplaySink,
  signal: AbortSignal,
): Promise<void> {
  // A writer found dead when the history ended was shown so with it.
  const quiet: Quiet = { since: Date.now(), marked: following.marked };
  const stop = new AbortController();
  const watcher = watchWriter(store, sessionId, following, sink, quiet, AbortSignal.any([signal, stop.signal]));
  following.questions.askOpen();
  try {
    for await (const page of newRecords(store, sessionId, following.cursor, signal)) {
      for (const record of page) {
        sendLive(following.projector, record, sink);
        following.state.apply(record.fact, record.seq);
        following.questions.sync();
        for (const waiting of following.watchers) waiting.record(record);
      }
      quiet.since = Date.now();
      quiet.marked = false;
      await sink.pressure();
    }
  } finally {
    stop.abort();
    following.questions.withdrawAll();
    for (const waiting of following.watchers) waiting.ended("the following ended");
    await watcher;
  }
}

async function watchWriter(
  store: FollowStore,
  sessionId: string,
  following: Following,
  sink: ReplaySink,
  quiet: Quiet,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    await sleep(WRITER_CHECK_MS, signal);
    const turnId = following.state.runningTurn();
    if (signal.aborted || quiet.marked || !turnId) continue;
    if (Date.now() - quiet.since < WRITER_CHECK_MS) continue;
    // A failed look is the next look's to repeat: the records' reading reports the store's failures.
    if (!(await openCallsInterrupted(store, sessionId).catch(() => false))) continue;
    quiet.marked = true;
    following.questions.withdrawAll();
    for (const mark of following.projector.interruptionMarks()) sink.update(mark, following.cursor.last);
    sink.update(turnEndUpdate({ turnId, ending: "interrupted" }), following.cursor.last);
    // Told once the marks are sent: what a watcher draws at the turn's end includes them.
    for (const waiting of following.watchers) waiting.ended("the process running the session ended during the turn");
  }
}
