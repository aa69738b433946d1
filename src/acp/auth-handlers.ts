/**
 * `authenticate`: verbatim has no sign-in of its own. While no model provider is configured,
 * `initialize` offers the ways to configure one as auth methods; choosing one re-reads the
 * config files and succeeds once a provider is configured, or answers -32000 again with what to set.
 */
import * as acp from "@agentclientprotocol/sdk/unstable";
import { RequestError } from "@agentclientprotocol/sdk/unstable";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { typed } from "./errors.ts";
import type { HandlerRegistry } from "./handler-table.ts";

export function authHandlers(app: HandlerRegistry, deps: EngineDeps): void {
  app.onRequest(acp.methods.agent.authenticate, ({ params }) =>
    typed(() => {
      const offered = deps.catalog.setupMethods().map((m) => m.id);
      if (offered.length === 0) return {};
      if (!offered.includes(params.methodId)) {
        throw RequestError.invalidParams(
          { methodId: params.methodId },
          `unknown auth method "${params.methodId}"; offered: ${offered.join(", ")}`,
        );
      }
      deps.catalog.reload();
      if (deps.catalog.defaultModel()) return {};
      throw RequestError.authRequired({ reason: "no_provider" }, deps.catalog.setupHint);
    }),
  );
}
