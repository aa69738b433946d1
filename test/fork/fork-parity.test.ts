/**
 * `session/fork` is exact to the fork point: the fork, reopened in a fresh process, shows the
 * live parent's whole view (only the session id differs), and a turn on the fork sends the model
 * the request the same turn on the parent sends.
 */
import { describe, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { comparable } from "../../src/cli/demo.ts";
import { asItsSource } from "../support/fork-view.ts";
import { choose } from "../../src/client/view-client.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import { connectProcess, fork, load, newSession, prompt } from "../support/acp-session.ts";
import { fixtureServer, type FixtureResponse } from "../support/fixture-server.ts";
import { kits, modelRef } from "../support/provider-kits.ts";
import { sandbox } from "../support/workspace.ts";
import { cards } from "../parity/harness.ts";

describe("a fork reopened in a fresh process", () => {
  test("shows the live parent's whole view: messages and their ids, cards, permission answers, plans", async () => {
    const box = sandbox("scripted/thinking");
    let edits = 0;
    const policy = (request: RequestPermissionRequest) =>
      choose(request.toolCall.kind === "edit" && ++edits === 2 ? "reject_once" : "allow_once")(request);
    const live = await connectProcess(box.env, { policy });
    let parent = "";
    let forked = "";
    try {
      parent = (await newSession(live.ctx, box.workspace)).sessionId;
      const use = (model: string) =>
        live.ctx.request(acp.methods.agent.session.setConfigOption, {
          sessionId: parent,
          configId: "model",
          value: model,
        });
      await prompt(live.ctx, parent, "Think first");
      await use("scripted/plan");
      await prompt(live.ctx, parent, "Plan it");
      await use("scripted/edit");
      await prompt(live.ctx, parent, "Fix the third line");
      await prompt(live.ctx, parent, "And the fourth");
      const response = await fork(live.ctx, { sessionId: parent, cwd: box.workspace, mcpServers: [] });
      forked = response.sessionId;
      expect(forked).not.toBe(parent);
      expect(response.configOptions).toEqual(
        (await live.ctx.request(acp.methods.agent.session.resume, { sessionId: parent, cwd: box.workspace }))
          .configOptions,
      );
    } finally {
      await live.close();
    }
    const fresh = await connectProcess(box.env);
    try {
      await load(fresh.ctx, forked, box.workspace);
    } finally {
      await fresh.close();
    }
    const liveView = live.client.view(parent);
    const forkView = fresh.client.view(forked);
    expect(cards(forkView).some((c) => c.status === "failed")).toBe(true);
    expect(liveView.plan?.length ?? 0).toBeGreaterThan(0);
    expect(diffValues(comparable(liveView), comparable(asItsSource(forkView, liveView)))).toEqual([]);
  });
});

describe.each(kits)("$kind: a turn on a fork", (kit) => {
  test("sends the request the same turn on the parent sends from the same point", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(kit));
    Object.assign(box.env, kit.env(server));
    const readme = `${box.workspace}/README.md`;
    const next = (): FixtureResponse => ({ sse: kit.text("You're welcome.") });
    const live = await connectProcess(box.env);
    try {
      const parent = (await newSession(live.ctx, box.workspace)).sessionId;
      server.enqueue(
        {
          sse: kit.thinkingThenCalls("Read it before answering.", "Let me look. ", [
            { id: "call_readme", name: "Read", input: { file_path: readme } },
          ]),
        },
        { sse: kit.thinkingThenText("Four lines; say so.", "It has four lines.") },
      );
      await prompt(live.ctx, parent, "Read the README");
      const { sessionId: forked } = await fork(live.ctx, { sessionId: parent, cwd: box.workspace, mcpServers: [] });
      server.enqueue(next());
      await prompt(live.ctx, forked, "Thanks");
      const onFork = server.requests.at(-1)?.body;
      server.enqueue(next());
      await prompt(live.ctx, parent, "Thanks");
      const onParent = server.requests.at(-1)?.body;
      expect(server.requests.length).toBe(4);
      expect(onFork).toEqual(onParent);
      expect(JSON.stringify(onFork)).toContain("call_readme");
    } finally {
      await live.close();
    }
  });
});
