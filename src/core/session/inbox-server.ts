/**
 * The writer's side of a session's inbox (journal/session-inbox.ts): while the session is open
 * here, this process holds its lease and a controller is attached (an attachment row lives:
 * journal/session-attachments.ts, on this machine or another), it reads the inbox when the
 * journal's watcher says something was committed (journal/journal-watch.ts), at most once every
 * INBOX_POLL_MS; with no controller attached it never reads it, and looks again for one only when
 * rows beside the facts change (an attach writes one) or, while one is attached, once its row
 * could have expired. A prompt joins the session's line of prompts (turn-line.ts: the one the
 * writer's own client's prompts wait in, with its bound; it waits in the inbox while the line is
 * full), a cancel cancels the running turn and empties the line. Each request is taken once, so
 * no prompt runs twice, on this machine or any other; a process that takes the session over
 * serves what was left waiting. A row is written by whoever has the journal's writer role, so a
 * prompt is checked as a client's prompt is (prompt/prompt-blocks.ts) before anything of it is
 * recorded: one that fails stays taken, is logged, and never runs. A prompt runs only while the
 * controller that sent it is there (its process, its attachment); one whose controller is gone is
 * withdrawn the same way.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { PromptFrom } from "../../journal/facts/index.ts";
import type { ControllerStore } from "../../journal/store.ts";
import type { InboxRequest } from "../../journal/session-inbox.ts";
import { isAlive, thisProcess } from "../../journal/process-identity.ts";
import { log } from "../../shared/log.ts";
import { checkPromptBlocks } from "../prompt/prompt-blocks.ts";
import { sleep } from "../../shared/sleep.ts";
import { SessionChanges, type JournalWatch } from "../../journal/journal-watch.ts";
import { ATTACHMENT_TTL_MS } from "../../journal/session-attachments.ts";
import type { TurnOutcome } from "../turn/run-turn.ts";

/** The least time between two reads of the inbox (a writer streaming commits often). */
export const INBOX_POLL_MS = 100;

type InboxStore = ControllerStore & JournalWatch;

/** What the inbox needs of the session it serves. */
export type InboxSession = {
  readonly sessionId: string;
  /** Whether this process writes the session (holds its lease) now. */
  readonly leased: boolean;
  /** Whether the session's line of prompts has room for one more now. */
  readonly acceptsPrompt: boolean;
  /**
   * Runs the prompt once every turn ahead of it in the line has ended, unless `gone` then gives a
   * reason to withdraw it (it ends `cancelled`, nothing recorded).
   */
  prompt(blocks: ContentBlock[], from: PromptFrom, gone: () => Promise<string | undefined>): Promise<TurnOutcome>;
  cancel(): void;
};

/** Serves the inbox until `signal` aborts. Never throws: a failed read is tried again at the next change. */
export async function serveInbox(store: InboxStore, session: InboxSession, signal: AbortSignal): Promise<void> {
  // A background watch: an open session must not keep the process from ending.
  using changes = new SessionChanges(store, session.sessionId, { background: true });
  let attached: boolean | undefined;
  while (!signal.aborted) {
    // While a controller is attached, its row may expire without a commit (its process killed).
    const seen = await changes.next(signal, attached ? ATTACHMENT_TTL_MS : undefined);
    if (signal.aborted || !session.leased) continue;
    try {
      if (attached === undefined || seen.rows || seen.timedOut)
        attached = await store.controllerAttached(session.sessionId);
      if (attached) await takeWaiting(store, session, signal);
    } catch (error) {
      attached = undefined;
      log.debug(`session ${session.sessionId}: the inbox could not be read`, error);
    }
    await sleep(INBOX_POLL_MS, signal, { keepsAlive: false });
  }
}

/** Takes and serves the requests waiting that the session can act on now. */
async function takeWaiting(store: InboxStore, session: InboxSession, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const request = await store.takeFromInbox(
      session.sessionId,
      session.acceptsPrompt ? ["prompt", "cancel"] : ["cancel"],
    );
    if (!request || signal.aborted) return;
    if (request.kind === "cancel") session.cancel();
    else {
      const blocks = checked(session.sessionId, request.requestId, request.blocks);
      if (blocks) run(session, blocks, request, () => controllerGone(store, session.sessionId, request));
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
 * Why a controller's prompt is withdrawn, or undefined while its controller is there: a process of
 * this machine that has ended, or an attachment row deleted (a detach) or expired (a process gone
 * on another machine: journal/session-attachments.ts). A row that cannot be read leaves the
 * prompt to run, as before attachments were kept.
 */
async function controllerGone(
  store: InboxStore,
  sessionId: string,
  request: Extract<InboxRequest, { kind: "prompt" }>,
): Promise<string | undefined> {
  const { by, attachmentId } = request;
  if (by.host === thisProcess().host && !isAlive({ pid: by.pid, startTime: by.startTime ?? "" }))
    return "its controller's process has ended";
  if (attachmentId === undefined) return undefined;
  const live = await store.liveAttachment(sessionId, attachmentId).catch(() => true);
  return live ? undefined : "its controller detached, or is gone (its attachment expired)";
}

/**
 * Runs a controller's prompt while its controller is there (`gone`, asked as it is taken and
 * again when its turn is about to start, after waiting in the session's line); its outcome reaches
 * the controller through the journal (its turn's end).
 */
function run(
  session: InboxSession,
  blocks: ContentBlock[],
  request: Extract<InboxRequest, { kind: "prompt" }>,
  gone: () => Promise<string | undefined>,
): void {
  const from: PromptFrom = { requestId: request.requestId, by: request.by };
  const id = JSON.stringify(request.requestId);
  const attempt = async (): Promise<TurnOutcome | string> => (await gone()) ?? session.prompt(blocks, from, gone);
  attempt().then(
    (outcome) => {
      if (typeof outcome === "string")
        log.warn(`session ${session.sessionId}: the inbox's prompt ${id} was withdrawn, not run: ${outcome}`);
      else if (!outcome.ok) log.warn(`session ${session.sessionId}: a controller's prompt failed: ${outcome.error}`);
    },
    (error: unknown) => log.warn(`session ${session.sessionId}: a controller's prompt could not run`, error),
  );
}
