/**
 * Rewinding a session (`session/rewind`, and `session/edit_prompt` before its new prompt): a
 * running turn is cancelled first, a turn a dead process left open is closed as the next prompt
 * would close it, then one `session_rewound` fact records the point. The journal stays
 * append-only: what the point leaves out is taken back from the model's context and from replay
 * (replay/retraction.ts), never deleted. The point is found in the session's index of its
 * messages (kept as its records are folded by the runtime), or, for a session
 * restored from the replay cache without reading its early records, by reading the journal back
 * from its end, a window at a time, so a rewind to a recent message reads only the last turns.
 */
import type { FactOf } from "../../journal/facts/index.ts";
import type { JournalStore } from "../../journal/store.ts";
import type { MessagePoint } from "../../replay/message-points.ts";
import { Located } from "./rewind-index.ts";
import { isRetracted } from "../../replay/retraction.ts";
import { EngineError } from "../errors.ts";
import {
  finishRestore,
  restoreAfter,
  type RestoreResult,
  type RewindingSession,
  unfinishedRestore,
} from "./restore-step.ts";
import { messagePoint } from "./message-point.ts";
import { recoveryFact } from "./recovery.ts";

/** Where to rewind to: through a message (kept), or to just before a user message (taken back with it). */
export type RewindTarget = { toMessageId: string } | { beforeMessageId: string };

export type Rewound = {
  /** The last record kept. */
  toSeq: number;
  /** The message kept last (none when nothing before the point is a message). */
  lastMessageId: string | undefined;
  /** The user and agent messages the client still shows (the RFD's `remainingMessageCount`), when the session's index holds them all. */
  remainingMessageCount: number | undefined;
  /** What the client drops: the messages (thoughts too) and the tool calls shown after the point. */
  retracted: { messageIds: string[]; toolCallIds: string[] };
  /** The turn that was running, cancelled before the rewind. */
  cancelledTurnId: string | undefined;
  /** The fact recorded (none when the rewind only finished a restore left unfinished: see `rewindTo`). */
  record: FactOf<"session_rewound"> | undefined;
  /** With files: how the restore ended. */
  restore: RestoreResult | undefined;
};

/** A session as SessionRuntime.rewind hands it over: as a rewind takes it, with its turn's control. */
export type RunningSession = RewindingSession & { running: boolean; cancel(): void; settled(): Promise<void> };

/**
 * Rewinds a live session: a running turn is cancelled and waited for, a turn a dead process left
 * open is closed as the next prompt would close it, then `rewindTo`.
 */
export async function rewindSession(session: RunningSession, target: RewindTarget, files: boolean): Promise<Rewound> {
  const cancelledTurnId = session.running ? session.state.lastTurn?.turnId : undefined;
  if (session.running) {
    session.cancel();
    await session.settled();
  }
  if (session.state.needsRecovery()) await session.record(recoveryFact(session.state));
  return rewindTo(session, target, cancelledTurnId, files);
}

/** Records read in the first window back from the journal's end; each next window is four times larger. */
const FIRST_WINDOW = 4096;

/**
 * Rewinds a session whose turn is stopped (`cancelledTurnId`: the turn stopped for it, if one
 * ran) and whose dead process's turn is closed: SessionRuntime.rewind does both first. `files`:
 * also restore the workspace files verbatim's own edits changed after the point, as its own step
 * after the rewind is recorded (restore-step.ts). A rewind with files to the message a restore
 * left unfinished (its process died) went back to, before any new prompt, records no new rewind:
 * it finishes that restore.
 */
export async function rewindTo(
  runtime: RewindingSession,
  target: RewindTarget,
  cancelledTurnId: string | undefined,
  files: boolean,
): Promise<Rewound> {
  const messageId = "toMessageId" in target ? target.toMessageId : target.beforeMessageId;
  const index = runtime.index;
  const found = index ?? (await located(runtime.store, runtime.sessionId, messageId, runtime.state.lastSeq));
  const point = messagePoint(found.points, runtime.sessionId, messageId);
  if ("beforeMessageId" in target && point.role !== "user") {
    throw new EngineError(
      "unknown_message",
      `message ${messageId} of session ${runtime.sessionId} is not a user message; only a prompt can be edited`,
      { sessionId: runtime.sessionId, messageId, role: point.role },
    );
  }
  const toSeq = "toMessageId" in target ? point.seq : point.startSeq - 1;
  const shown = found.points.all();
  const kept = shown.filter((p) => p.startSeq <= toSeq && p.role !== "thought");
  const answer = {
    toSeq,
    lastMessageId: lastKept(kept, point, target),
    remainingMessageCount: index ? kept.length : undefined,
    cancelledTurnId,
  };
  const unfinished = files && "toMessageId" in target ? unfinishedRestore(runtime, messageId) : undefined;
  if (unfinished) {
    const restore = await finishRestore(runtime, unfinished);
    return { ...answer, retracted: { messageIds: [], toolCallIds: [] }, record: undefined, restore };
  }
  const taken = runtime.state.retracted ?? [];
  const earlier = taken.filter((range) => range.toSeq < toSeq);
  const retracted = {
    messageIds: shown.filter((p) => p.startSeq > toSeq).map((p) => p.messageId),
    toolCallIds: found.calls.filter((c) => c.seq > toSeq && !isRetracted(taken, c.seq)).map((c) => c.toolCallId),
  };
  const fact: FactOf<"session_rewound"> = {
    kind: "session_rewound",
    toSeq,
    earlier,
    ...("toMessageId" in target ? { toMessageId: messageId } : { beforeMessageId: messageId }),
    ...(cancelledTurnId ? { cancelledTurnId } : {}),
    retracted,
  };
  await runtime.record(fact);
  const restore = files
    ? await restoreAfter(runtime, { toSeq, toMessageId: "toMessageId" in target ? messageId : undefined }, taken)
    : undefined;
  return { ...answer, retracted, record: fact, restore };
}

/** The message kept last: the one rewound to, or the last before the prompt an edit takes back. */
function lastKept(kept: MessagePoint[], point: MessagePoint, target: RewindTarget): string | undefined {
  if ("toMessageId" in target) return point.messageId;
  return kept.at(-1)?.messageId;
}

/** The messages and calls of the journal's last records, as far back as it takes to find `messageId` (or all of them). */
async function located(store: JournalStore, sessionId: string, messageId: string, lastSeq: number): Promise<Located> {
  for (let window = FIRST_WINDOW; ; window *= 4) {
    const from = Math.max(1, lastSeq - window + 1);
    const found = new Located();
    for await (const page of store.readPages(sessionId, from))
      for (const record of page) if (record.seq <= lastSeq) found.push(record);
    if (found.points.get(messageId) || from === 1) return found;
  }
}
