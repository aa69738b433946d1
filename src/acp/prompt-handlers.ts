/** session/prompt and session/cancel. */
import * as acp from "@agentclientprotocol/sdk/unstable";
import { RequestError } from "@agentclientprotocol/sdk/unstable";
import { typed, unknownSession } from "./errors.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import type { OpenSessions } from "./open-sessions.ts";
import { checkPromptBlocks } from "./prompt-blocks.ts";
import { checkSessionId } from "./request-checks.ts";

export function promptHandlers(app: HandlerRegistry, sessions: OpenSessions): void {
  app.onRequest(acp.methods.agent.session.prompt, ({ params }) =>
    typed(async () => {
      checkSessionId(params.sessionId);
      // A load or resume of this session in progress opens it: wait for it rather than refuse.
      await sessions.lifecycle.settled(params.sessionId);
      const open = sessions.get(params.sessionId);
      if (!open)
        throw unknownSession(
          params.sessionId,
          "is not open on this connection; call session/load or session/resume first",
        );
      checkPromptBlocks(params.prompt);
      const outcome = await open.runtime.prompt(params.prompt);
      // Every update of the turn is written before its response.
      await sessions.flush();
      if (!outcome.ok)
        throw RequestError.internalError(
          { reason: "turn_failed", sessionId: params.sessionId, error: outcome.error },
          outcome.error,
        );
      return { stopReason: outcome.stopReason };
    }),
  );

  app.onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    sessions.get(params.sessionId)?.runtime.cancel();
  });
}
