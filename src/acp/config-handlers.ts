/** session/set_config_option and session/set_mode: changes recorded as facts, shown in place. */
import * as acp from "@agentclientprotocol/sdk/unstable";
import { RequestError } from "@agentclientprotocol/sdk/unstable";
import { typed, unknownSession } from "./errors.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import type { OpenSessions } from "./open-sessions.ts";
import { checkSessionId } from "./request-checks.ts";

export function configHandlers(app: HandlerRegistry, sessions: OpenSessions): void {
  const openSession = async (sessionId: string) => {
    checkSessionId(sessionId);
    await sessions.lifecycle.settled(sessionId);
    const open = sessions.get(sessionId);
    if (!open)
      throw unknownSession(sessionId, "is not open on this connection; call session/load or session/resume first");
    return open;
  };

  app.onRequest(acp.methods.agent.session.setConfigOption, ({ params }) =>
    typed(async () => {
      const open = await openSession(params.sessionId);
      if (typeof params.value !== "string") {
        throw RequestError.invalidParams(
          { configId: params.configId },
          `config option "${params.configId}" takes a string value`,
        );
      }
      const configOptions = await open.runtime.setConfig(params.configId, params.value);
      await sessions.flush();
      return { configOptions };
    }),
  );

  app.onRequest(acp.methods.agent.session.setMode, ({ params }) =>
    typed(async () => {
      const open = await openSession(params.sessionId);
      await open.runtime.setConfig("mode", params.modeId);
      await sessions.flush();
      return {};
    }),
  );
}
