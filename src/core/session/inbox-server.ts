/**
 * The writer's side of a session's inbox (journal/session-inbox.ts): while the session is open
 * here and this process holds its lease, it looks for controllers' requests every
 * INBOX_POLL_MS (one indexed read): a prompt joins the session's line of prompts (turn-line.ts:
 * the one the writer's own client's prompts wait in, with its bound; it waits in the inbox while
 * the line is full), a cancel cancels the running turn and empties the line. Each request is taken once, so no prompt
 * runs twice, on this machine or any other; a process that takes the session over serves what
 * was left waiting.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { PromptFrom } from "../../journal/facts/index.ts";
import type { JournalStore } from "../../journal/store.ts";
import { log } from "../../shared/log.ts";
import { sleep } from "../../shared/sleep.ts";
import type { TurnOutcome } from "../turn/run-turn.ts";

/** How often the writer looks at its session's inbox. */
export const INBOX_POLL_MS = 100;

/** What the inbox needs of the session it serves. */
export type InboxSession = {
  readonly sessionId: string;
  /** Whether this process writes the session (holds its lease) now. */
  readonly leased: boolean;
  /** Whether the session's line of prompts has room for one more now. */
  readonly acceptsPrompt: boolean;
  /** Runs the prompt once every turn ahead of it in the line has ended. */
  prompt(blocks: ContentBlock[], from: PromptFrom): Promise<TurnOutcome>;
  cancel(): void;
};

/** Serves the inbox until `signal` aborts. Never throws: a failed look is tried again at the next. */
export async function serveInbox(
  store: Pick<JournalStore, "takeFromInbox">,
  session: InboxSession,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    // A background poll: an open session must not keep the process from ending.
    await sleep(INBOX_POLL_MS, signal, { keepsAlive: false });
    if (signal.aborted || !session.leased) continue;
    try {
      const request = await store.takeFromInbox(
        session.sessionId,
        session.acceptsPrompt ? ["prompt", "cancel"] : ["cancel"],
      );
      if (!request || signal.aborted) continue;
      if (request.kind === "cancel") session.cancel();
      else run(session, request.blocks, { requestId: request.requestId, by: request.by });
    } catch (error) {
      log.debug(`session ${session.sessionId}: the inbox could not be read`, error);
    }
  }
}

/**
 * Runs a controller's prompt; its outcome reaches the controller through the journal (its turn's
 * end). It waits in the session's line behind the turns ahead of it.
 */
function run(session: InboxSession, blocks: ContentBlock[], from: PromptFrom): void {
  session.prompt(blocks, from).then(
    (outcome) => {
      if (!outcome.ok) log.warn(`session ${session.sessionId}: a controller's prompt failed: ${outcome.error}`);
    },
    (error: unknown) => log.warn(`session ${session.sessionId}: a controller's prompt could not run`, error),
  );
}
