/** Answering `initialize` costs only the SDK: the engine loads with the first method that needs it. */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { createAgentApp, ENGINE_NOTIFICATIONS, ENGINE_REQUESTS } from "../../src/acp/agent-app.ts";
import { AfterResponse } from "../../src/acp/after-response.ts";
import { clientProfile } from "../../src/acp/client-profile.ts";
import { loadHandlers } from "../../src/acp/lazy-handlers.ts";
import { EXTENSION_REQUESTS } from "../../src/acp/extension-requests.ts";
import { engineDeps } from "../../src/core/engine-deps.ts";
import { choose, ViewClient } from "../../src/client/view-client.ts";
import { withProcessEnv } from "../support/process-env.ts";
import { sandbox } from "../support/workspace.ts";

describe("the engine behind initialize", () => {
  test("every method the engine handles is forwarded to it by the app, and only those", () => {
    const box = sandbox();
    const deps = engineDeps(box.env);
    const { handlers } = loadHandlers(deps, () => clientProfile(), { trust: false, responses: new AfterResponse() });
    const registered = handlers.methods();
    expect([...registered.requests].sort()).toEqual([...ENGINE_REQUESTS].sort());
    expect([...registered.notifications].sort()).toEqual([...ENGINE_NOTIFICATIONS].sort());
    expect([...registered.extensions].sort()).toEqual(EXTENSION_REQUESTS.map((e) => e.method).sort());
    deps.store.close();
  });

  test("initialize is answered without loading the engine; the first session method loads it", async () => {
    const box = sandbox();
    await withProcessEnv(box.env, async () => {
      const agent = createAgentApp();
      const connection = new ViewClient(choose("allow_once")).app().connect(agent.inMemory());
      await connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      expect(agent.loadedDeps()).toBeUndefined();
      await connection.agent.request(acp.methods.agent.session.new, { cwd: box.workspace, mcpServers: [] });
      expect(agent.loadedDeps()).toBeDefined();
      await agent.closeAll();
      connection.close();
      agent.loadedDeps()?.store.close();
    });
  });
});
