/**
 * The writer's side of a session's inbox (journal/session-inbox.ts): while the session is open
 * here and this process holds its lease, it looks for controllers' requests every
 * INBOX_POLL_MS (one indexed read): a prompt is run when no turn runs (it waits in the inbox
 * while one does), a cancel cancels the running turn. Each request is taken once, so no prompt
 * runs twice, on this machine or any other; a process that takes the session over serves what
 * was left waiting. A row is written by whoever has the journal's writer role, so a prompt is
 * checked as a client's prompt is (prompt/prompt-blocks.ts) before anything of it is recorded: one
 * that fails stays taken, is logged, and never runs.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { PromptFrom } from "../../journal/facts/index.ts";
import type { JournalStore } from "../../journal/store.ts";
import { log } from "../../shared/log.ts";
import { EngineError } from "../errors.ts";
import { checkPromptBlocks } from "../prompt/prompt-blocks.ts";
import { sleep } from "../../shared/sleep.ts";
import type { TurnOutcome } from "../turn/run-turn.ts";

/** How often the writer looks at its session's inbox. */
export const INBOX_POLL_MS = 100;

/** What the inbox needs of the session it serves. */
export type InboxSession = {
  readonly sessionId: string;
  /** Whether this process writes the session (holds its lease) now. */
  readonly leased: boolean;
  /** Whether a turn runs now. */
  readonly running: boolean;
  prompt(blocks: ContentBlock[], from: PromptFrom): Promise<TurnOutcome>;
  cancel(): void;
  /** Resolves once the running turn, if any, has settled. */
  settled(): Promise<void>;
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
      const request = await store.takeFromInbox(session.sessionId, session.running ? ["cancel"] : ["prompt", "cancel"]);
      if (!request || signal.aborted) continue;
      if (request.kind === "cancel") session.cancel();
      else {
        const blocks = checked(session.sessionId, request.requestId, request.blocks);
        if (blocks) run(session, blocks, { requestId: request.requestId, by: request.by });
      }
    } catch (error) {
      log.debug(`session ${session.sessionId}: the inbox could not be read`, error);
    }
  }
}

/** The request's blocks if a client's prompt of them would be accepted; logged and undefined otherwise. */
function checked(sessionId: string, requestId: string, blocks: unknown): ContentBlock[] | undefined {
  try {
    return checkPromptBlocks(blocks);
  } catch (error) {
    log.warn(
      `session ${sessionId}: the inbox's prompt ${JSON.stringify(requestId)} was refused, not run: ${(error as Error).message}`,
    );
    return undefined;
  }
}

/**
 * Runs a controller's prompt; its outcome reaches the controller through the journal (its turn's
 * end). A prompt the writer's own client started a turn before is run once that turn has settled.
 */
function run(session: InboxSession, blocks: ContentBlock[], from: PromptFrom): void {
  const attempt = async (): Promise<TurnOutcome> => {
    for (;;) {
      try {
        return await session.prompt(blocks, from);
      } catch (error) {
        if (!(error instanceof EngineError && error.code === "turn_running")) throw error;
        await session.settled();
      }
    }
  };
  attempt().then(
    (outcome) => {
      if (!outcome.ok) log.warn(`session ${session.sessionId}: a controller's prompt failed: ${outcome.error}`);
    },
    (error: unknown) => log.warn(`session ${session.sessionId}: a controller's prompt could not run`, error),
  );
}
