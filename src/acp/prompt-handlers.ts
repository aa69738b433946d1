/** session/prompt and session/cancel. */
import * as acp from "@agentclientprotocol/sdk/unstable";
import { RequestError, type ContentBlock, type StopReason } from "@agentclientprotocol/sdk/unstable";
import type { SessionRuntime } from "../core/session/session-runtime.ts";
import { typed, unknownSession } from "./errors.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import type { OpenSessions } from "./open-sessions.ts";
import { checkPromptBlocks } from "../core/prompt/prompt-blocks.ts";
import { checkSessionId } from "./request-checks.ts";
import type { Followers } from "./followers.ts";
import type { JournalStore } from "../journal/store.ts";
import { log } from "../shared/log.ts";
import { cancelTheWriter, promptTheWriter } from "../core/follow/writer-requests.ts";

/**
 * `followers`: a session this connection follows as a controller is prompted and cancelled
 * through its writer (core/follow/writer-requests.ts); an observer can do neither.
 */
export function promptHandlers(
  app: HandlerRegistry,
  sessions: OpenSessions,
  followers: Followers,
  store: JournalStore,
): void {
  app.onRequest(acp.methods.agent.session.prompt, ({ params }) =>
    typed(async () => {
      checkSessionId(params.sessionId);
      // A load or resume of this session in progress opens it: wait for it rather than refuse.
      await sessions.lifecycle.settled(params.sessionId);
      const open = sessions.get(params.sessionId);
      const followed = open ? undefined : followers.of(params.sessionId);
      if (followed) {
        checkPromptBlocks(params.prompt);
        if (followed.role !== "controller") throw observerRefused(params.sessionId, "prompt");
        const stopReason = await promptTheWriter(
          store,
          params.sessionId,
          followed.following,
          params.prompt,
          sessions.answerer(),
          followed.attachmentId,
        );
        await sessions.flush();
        return { stopReason };
      }
      if (!open)
        throw unknownSession(
          params.sessionId,
          "is not open on this connection; call session/load or session/resume first",
        );
      checkPromptBlocks(params.prompt);
      return { stopReason: await promptAnswered(sessions, open.runtime, params.prompt) };
    }),
  );

  app.onNotification(acp.methods.agent.session.cancel, async ({ params }) => {
    const open = sessions.get(params.sessionId);
    if (open) return open.runtime.cancel();
    if (followers.of(params.sessionId)?.role === "controller")
      await cancelTheWriter(store, params.sessionId, sessions.answerer()).catch((error: unknown) =>
        log.warn(`could not ask the writer of ${params.sessionId} to cancel`, error),
      );
  });
}

/**
 * Runs a prompt on a session open here and resolves with its turn's stop reason once every update
 * of the turn is written (a response comes after them); a failed turn rejects with an internal
 * error (`turn_failed`, the turn's error). For session/prompt and an edited prompt's new prompt.
 */
export async function promptAnswered(
  sessions: OpenSessions,
  runtime: SessionRuntime,
  blocks: ContentBlock[],
): Promise<StopReason> {
  const outcome = await runtime.prompt(blocks);
  await sessions.flush();
  if (!outcome.ok)
    throw RequestError.internalError(
      { reason: "turn_failed", sessionId: runtime.sessionId, error: outcome.error },
      outcome.error,
    );
  return outcome.stopReason;
}

const observerRefused = (sessionId: string, what: string) =>
  RequestError.invalidRequest(
    { reason: "observer", sessionId },
    `this connection follows session ${sessionId} as an observer, which cannot ${what}; attach as a controller`,
  );
