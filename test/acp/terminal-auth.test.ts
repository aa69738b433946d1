/**
 * Terminal authentication: a client that declares it can run the agent in a terminal is offered
 * `verbatim setup` as an auth method of type `terminal`; a client that does not is offered only
 * the agent-type methods, as ACP requires.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { AuthMethod, ClientCapabilities } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { connectInProcess } from "../support/acp-session.ts";
import { sandbox } from "../support/workspace.ts";

async function authMethods(clientCapabilities: ClientCapabilities, model = ""): Promise<AuthMethod[]> {
  const box = sandbox();
  const c = await connectInProcess({ ...box.env, VERBATIM_MODEL: model });
  try {
    const init = await c.ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities,
    });
    return init.authMethods ?? [];
  } finally {
    await c.close();
  }
}

const types = (methods: AuthMethod[]) => methods.map((m) => ("type" in m ? m.type : "agent") ?? "agent");

describe("terminal authentication", () => {
  test("a client declaring auth.terminal is offered `setup` in a terminal first, then the agent-type methods", async () => {
    const methods = await authMethods({ auth: { terminal: true } });
    expect(methods[0]).toMatchObject({ type: "terminal", id: "terminal-setup", args: ["setup"] });
    expect(types(methods.slice(1))).toEqual(["agent", "agent", "agent", "agent"]);
  });

  test("the older _meta terminal-auth declaration is accepted too", async () => {
    const methods = await authMethods({ _meta: { "terminal-auth": true } });
    expect(methods[0]).toMatchObject({ type: "terminal", args: ["setup"] });
  });

  test("a client that does not declare it is offered no terminal method", async () => {
    expect(types(await authMethods({}))).toEqual(["agent", "agent", "agent", "agent"]);
    expect(types(await authMethods({ auth: { terminal: false } }))).toEqual(["agent", "agent", "agent", "agent"]);
  });

  test("with a provider configured, nothing is offered, terminal or not", async () => {
    expect(await authMethods({ auth: { terminal: true } }, "scripted/demo")).toEqual([]);
  });
});
