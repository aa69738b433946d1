/**
 * `_session/steering` (src/protocol/extensions.ts): text for the model while a turn runs. Into the
 * running turn it answers `{outcome: "injected"}` at once (the text lands, is recorded and shown,
 * before the turn's next step; the turn's `session/prompt` answers once, when the turn ends). On
 * an idle session it starts a turn of its own and answers `{outcome: "startedNewTurn"}`, or, when
 * the client asked for `idleBehavior: "promptRequired"`, takes nothing and answers
 * `{outcome: "promptRequired", reason: "noRunningTurn"}`. docs/acp-language.md says this.
 */
import { RequestError } from "@agentclientprotocol/sdk/unstable";
import { typed, unknownSession } from "./errors.ts";
import type { Followers } from "./followers.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import type { OpenSessions } from "./open-sessions.ts";
import { checkPromptBlocks } from "../core/prompt/prompt-blocks.ts";
import { checkSessionId } from "./request-checks.ts";
import { STEERING_METHOD } from "../protocol/extensions.ts";

export function steeringHandlers(app: HandlerRegistry, sessions: OpenSessions, followers: Followers): void {
  app.onExtension(STEERING_METHOD, ({ params }) =>
    typed(async () => {
      checkSessionId(params.sessionId);
      await sessions.lifecycle.settled(params.sessionId);
      const open = sessions.get(params.sessionId);
      if (!open) {
        if (followers.of(params.sessionId))
          throw RequestError.invalidRequest(
            { reason: "not_writer", sessionId: params.sessionId },
            `session ${params.sessionId} is written by another process; steering reaches only a session this connection runs (load it here to steer it)`,
          );
        throw unknownSession(
          params.sessionId,
          "is not open on this connection; call session/load or session/resume first",
        );
      }
      const blocks = checkPromptBlocks(params.prompt);
      const idle = params._meta?.steering?.idleBehavior === "promptRequired" ? "promptRequired" : "startTurn";
      const outcome = open.runtime.steer(blocks, idle);
      return outcome === "promptRequired" ? { outcome, reason: "noRunningTurn" } : { outcome };
    }),
  );
}
