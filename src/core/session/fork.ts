/**
 * Forking a session: a new session whose journal begins as an exact copy of the source's records
 * up to its end, so it replays the same view (same message ids, cards, answers, plans) and gives
 * the model the same context. From then on each lives on its own.
 */
import type { JournalStore } from "../../journal/store.ts";
import { sessionNotFound } from "../../journal/errors.ts";
import { isThisProcess } from "../../journal/process-identity.ts";
import { SessionStateFold } from "../../replay/state.ts";
import { EngineError } from "../errors.ts";
import { mintId } from "../ids.ts";
import { defined } from "../../shared/defined.ts";
import type { StoredFact } from "../../journal/facts/index.ts";
import { MessagePoints } from "../../replay/message-points.ts";
import { messagePoint } from "./message-point.ts";

/** `title`: the fork's own title, recorded at its creation (none when the source has no title yet). */
export type Forked = { sessionId: string; forkOf: { sessionId: string; seq: number }; title?: StoredFact };

/** A fork's title says it is one: in a list it would otherwise look the same as its source. */
export const forkTitle = (sourceTitle: string) => `${sourceTitle} (fork)`;

/**
 * Forks `sourceId` at its last record, or at the point of the message `atMessageId` (a user or
 * agent message the client is shown: replay/message-points.ts), inclusive. Refused while a turn runs on it: `runningHere` when this
 * process runs it, or when its last turn is open and another live process holds the session (a
 * turn a dead process left open is forked as it stands, its calls interrupted in both).
 * A subagent's session is part of its parent's and is not forked on its own. A titled source's
 * fork records its own title (`title_set`) right after the copy, so lists and a reload tell it apart.
 */
export async function forkSession(
  store: JournalStore,
  sourceId: string,
  runningHere: boolean,
  atMessageId?: string,
): Promise<Forked> {
  const source = await store.info(sourceId);
  if (!source) throw sessionNotFound(sourceId);
  if (source.parentSessionId !== undefined) {
    throw new EngineError(
      "not_forkable",
      `session ${sourceId} is a subagent's session (of ${source.parentSessionId}); fork that session instead`,
      {
        sessionId: sourceId,
        parentSessionId: source.parentSessionId,
      },
    );
  }
  const state = new SessionStateFold();
  const points = new MessagePoints();
  for await (const page of store.readPages(sourceId))
    for (const record of page) {
      state.apply(record.fact, record.seq);
      points.push(record);
    }
  const holder = await store.holder(sourceId);
  const elsewhere = state.lastTurn?.ended === false && holder !== undefined && !isThisProcess(holder);
  if (runningHere || elsewhere) {
    throw new EngineError(
      "turn_running",
      `session ${sourceId} has a turn running; wait for it to end (or cancel it) before forking it`,
      {
        sessionId: sourceId,
      },
    );
  }
  const sessionId = mintId("ses");
  const now = new Date().toISOString();
  const at = atMessageId === undefined ? undefined : messagePoint(points, sourceId, atMessageId);
  const forkOf = { sessionId: sourceId, seq: at?.seq ?? state.lastSeq };
  const forked = await store.fork(
    {
      sessionId,
      cwd: source.cwd,
      additionalDirectories: source.additionalDirectories,
      createdAt: now,
      updatedAt: now,
      forkOf,
      ...defined({ title: source.title }),
    },
    { kind: "session_forked", fromSessionId: sourceId, fromSeq: forkOf.seq, ...defined({ atMessageId }) },
  );
  if (state.title === undefined) return { sessionId, forkOf };
  // The fork is new and nobody else knows it yet: this lease is only for this one append.
  await store.acquire(sessionId);
  try {
    const title = await store.append(
      sessionId,
      forked.seq + 1,
      { kind: "title_set", title: forkTitle(state.title) },
      now,
    );
    return { sessionId, forkOf, title };
  } finally {
    await store.release(sessionId);
  }
}
