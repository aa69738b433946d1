/**
 * What a controller asks of the process that runs a session it follows (src/protocol/extensions.ts): a
 * prompt, answered once the writer's turn for it ends (the turn is watched in the journal, as
 * every follower sees it), and a cancel of the writer's running turn. Both go through the
 * session's inbox (journal/session-inbox.ts): never run here, never run twice.
 */
import type { ContentBlock, StopReason } from "@agentclientprotocol/sdk";
import { EngineError } from "../errors.ts";
import { mintId } from "../ids.ts";
import type { AnsweredBy, StoredFact } from "../../journal/facts/index.ts";
import type { FollowStore } from "./follow-store.ts";
import { defined } from "../../shared/defined.ts";
import { sleep } from "../../shared/sleep.ts";
import type { Following } from "./session-follower.ts";

/** How often a prompt waiting for the writer to take it checks the writer still lives. */
const WRITER_LIVES_MS = 1000;

const noWriter = (sessionId: string, what: string) =>
  new EngineError(
    "no_writer",
    `no live process runs session ${sessionId} ${what}; load it (session/load) to continue it here`,
    { sessionId },
  );

/**
 * Sends `blocks` to the session's writer and resolves with its turn's stop reason once the turn
 * ends. The request names the controller's attachment (`attachmentId`): the writer runs it only
 * while that lives. Which turn the prompt became is the session's state fold's (`lastTurn.requestId`).
 * Refused when no live process holds the session (EngineError `no_writer`), or when its inbox is full
 * (`inbox_full`); rejects with EngineError `turn_failed` when the turn fails, `following_ended`
 * when the writer dies before its turn for the prompt ends or the following ends first.
 */
export async function promptTheWriter(
  store: FollowStore,
  sessionId: string,
  following: Following,
  blocks: ContentBlock[],
  by: AnsweredBy,
  attachmentId?: string,
): Promise<StopReason> {
  if (!(await store.holder(sessionId))) throw noWriter(sessionId, "now");
  const requestId = mintId("req");
  const ended = new AbortController();
  const turn = new Promise<StopReason>((resolve, reject) => {
    let turnId: string | undefined;
    const watcher = {
      record: ({ fact }: StoredFact) => {
        const last = following.state.lastTurn;
        if (turnId === undefined && last?.requestId === requestId) turnId = last.turnId;
        if (fact.kind !== "turn_ended" || turnId === undefined || fact.turnId !== turnId) return;
        ended.abort();
        if (fact.outcome === "failed")
          reject(new EngineError("turn_failed", fact.error ?? "the turn failed", { sessionId }));
        else resolve(fact.stopReason ?? "end_turn");
      },
      ended: (reason: string) => {
        ended.abort();
        reject(new EngineError("following_ended", `${reason} before the prompt's turn did`, { sessionId }));
      },
    };
    // Whatever ends the wait (the turn's end, the following's, the writer's, a failed send) stops watching.
    following.watchers.add(watcher);
    ended.signal.addEventListener("abort", () => following.watchers.delete(watcher), { once: true });
    // Until the writer takes the prompt: a writer gone meanwhile never will.
    void (async () => {
      while (!ended.signal.aborted && turnId === undefined) {
        await sleep(WRITER_LIVES_MS, ended.signal);
        if (ended.signal.aborted || turnId !== undefined) return;
        if (!(await store.holder(sessionId).catch(() => ({ pid: 0 })))) {
          ended.abort();
          reject(noWriter(sessionId, "any more (it ended before it took the prompt)"));
        }
      }
    })();
  });
  try {
    await store.sendToWriter(sessionId, {
      kind: "prompt",
      requestId,
      blocks,
      by,
      ...defined({ attachmentId }),
      at: new Date().toISOString(),
    });
  } catch (error) {
    ended.abort();
    throw error;
  }
  return turn;
}

/** Asks the session's writer to cancel its running turn (a no-op when none runs once it looks). */
export async function cancelTheWriter(store: FollowStore, sessionId: string, by: AnsweredBy): Promise<void> {
  await store.sendToWriter(sessionId, { kind: "cancel", requestId: mintId("req"), by, at: new Date().toISOString() });
}
