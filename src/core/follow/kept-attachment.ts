/**
 * A controller's attachment row (journal/session-attachments.ts), kept while the controller
 * follows its session: written when it attaches, refreshed every ATTACHMENT_REFRESH_MS, deleted
 * when the following stops (a detach, another attach of the session, the connection's end). A
 * process killed leaves its row to expire. The writer runs the controller's queued prompts only
 * while the row lives.
 */
import { mintId } from "../ids.ts";
import type { AnsweredBy } from "../../journal/facts/index.ts";
import { ATTACHMENT_REFRESH_MS, type Attachment } from "../../journal/session-attachments.ts";
import type { ControllerStore } from "../../journal/store.ts";
import type { FollowStore } from "./follow-store.ts";
import { log } from "../../shared/log.ts";
import { sleep } from "../../shared/sleep.ts";
import type { ReplaySink } from "../session/replay-sink.ts";
import { type Following, followLive } from "./session-follower.ts";

type AttachmentStore = Pick<ControllerStore, "keepAttachment" | "dropAttachment">;

/** Writes a new attachment row for `by`; resolves with it once it is stored. */
export async function attached(store: AttachmentStore, sessionId: string, by: AnsweredBy): Promise<Attachment> {
  const attachment = { attachmentId: mintId("att"), by };
  await store.keepAttachment(sessionId, attachment);
  return attachment;
}

/** Refreshes the row until `signal` aborts, then deletes it. Never throws: a failed refresh is tried again at the next. */
export async function keepAttached(
  store: AttachmentStore,
  sessionId: string,
  attachment: Attachment,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    // A background refresh: it must not keep the process from ending.
    await sleep(ATTACHMENT_REFRESH_MS, signal, { keepsAlive: false });
    if (signal.aborted) break;
    await store
      .keepAttachment(sessionId, attachment)
      .catch((error: unknown) => log.debug(`session ${sessionId}: the attachment could not be refreshed`, error));
  }
  await store
    .dropAttachment(sessionId, attachment.attachmentId)
    .catch((error: unknown) => log.debug(`session ${sessionId}: the attachment could not be deleted`, error));
}

/**
 * Follows the session live (followLive) until `signal` aborts; a controller's attachment row
 * (`attachment`) lives as long as the following, however the following ends.
 */
export async function followAttached(
  store: FollowStore,
  sessionId: string,
  live: { following: Following; sink: ReplaySink; attachment: Attachment | undefined },
  signal: AbortSignal,
): Promise<void> {
  const ended = new AbortController();
  const { attachment } = live;
  const keeping = attachment && keepAttached(store, sessionId, attachment, AbortSignal.any([signal, ended.signal]));
  try {
    await followLive(store, sessionId, live.following, live.sink, signal);
  } finally {
    ended.abort();
    await keeping;
  }
}
