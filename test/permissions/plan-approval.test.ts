/**
 * Approving a plan: in plan mode the model presents its plan with ExitPlanMode (Claude Code's
 * name and input); the user answers a permission question whose options are the modes to go on
 * in (claude-agent-acp's ids and kinds); approving switches the mode and the work goes on in it,
 * refusing keeps the session planning. Driven through the agent in a process, on each provider
 * wire against its recorded streams on loopback; a fresh process reopens the session.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { existsSync } from "node:fs";
import { describe, expect, test } from "bun:test";
import { choose } from "../../src/client/view-client.ts";
import { fixtureServer, type FixtureServer } from "../support/fixture-server.ts";
import { prompt } from "../support/acp-session.ts";
import { kits, modelRef, type Kit } from "../support/provider-kits.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { cards, parity, texts } from "../parity/harness.ts";

const PLAN = "## Plan\n\n1. Write NOTES.md with a summary.\n";

function boxFor(kit: Kit): { server: FixtureServer; box: Sandbox } {
  const server = fixtureServer();
  const box = sandbox(modelRef(kit));
  Object.assign(box.env, kit.env(server));
  return { server, box };
}

const presentPlan = (kit: Kit) => ({
  sse: kit.calls([{ id: "call_plan", name: "ExitPlanMode", input: { plan: PLAN } }], "Here is my plan. "),
});

/** Answers every question with `optionId`, keeping what was asked. */
function answering(optionId: string, asked: RequestPermissionRequest[]) {
  return (request: RequestPermissionRequest) => {
    asked.push(request);
    return { outcome: { outcome: "selected" as const, optionId } };
  };
}

describe.each(kits)("$kind: plan approval", (kit) => {
  test("a plan approved with acceptEdits switches the mode, then edits run unasked; a reload shows the same", async () => {
    const { server, box } = boxFor(kit);
    const notes = `${box.workspace}/NOTES.md`;
    server.enqueue(
      presentPlan(kit),
      { sse: kit.calls([{ id: "call_write", name: "Write", input: { file_path: notes, content: "# Notes\n" } }]) },
      { sse: kit.text("NOTES.md is written.") },
    );
    const asked: RequestPermissionRequest[] = [];
    const r = await parity(
      modelRef(kit),
      async ({ ctx, sessionId }) => {
        await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
        expect((await prompt(ctx, sessionId, "Plan the notes, then write them")).stopReason).toBe("end_turn");
      },
      { box, policy: answering("acceptEdits", asked) },
    );
    // One question, the plan's: its options say what happens next, by mode id; the Write was not asked about.
    expect(asked.length).toBe(1);
    expect(asked[0]?.options).toEqual([
      { optionId: "bypassPermissions", name: "Yes, and bypass permissions", kind: "allow_always" },
      { optionId: "acceptEdits", name: "Yes, and auto-accept edits", kind: "allow_always" },
      { optionId: "default", name: "Yes, and manually approve edits", kind: "allow_once" },
      { optionId: "plan", name: "No, keep planning", kind: "reject_once" },
    ]);
    expect(asked[0]?.toolCall).toMatchObject({ kind: "switch_mode", title: "Ready to code?" });
    const [plan, write] = cards(r.live);
    expect(plan).toMatchObject({ name: "ExitPlanMode", kind: "switch_mode", status: "completed" });
    expect(JSON.stringify(plan?.content)).toContain("Write NOTES.md with a summary.");
    expect(write).toMatchObject({ name: "Write", status: "completed" });
    expect(existsSync(notes)).toBe(true);
    expect(r.live.modeId).toBe("acceptEdits");
    const modeUpdates = r.liveNotifications.filter((n) => n.update.sessionUpdate === "current_mode_update");
    expect(modeUpdates.map((n) => (n.update as { currentModeId: string }).currentModeId)).toEqual([
      "plan",
      "acceptEdits",
    ]);
    expect(r.differences).toEqual([]);
    expect(r.reloadAsked).toBe(0);
    // The model was told the plan was approved before its next step.
    expect(JSON.stringify(server.requests[1]?.body)).toContain("approved your plan");
  });

  test("a plan refused keeps the session planning: nothing is changed, and the model is told to revise", async () => {
    const { server, box } = boxFor(kit);
    server.enqueue(presentPlan(kit), { sse: kit.text("Understood: what should change?") });
    const r = await parity(
      modelRef(kit),
      async ({ ctx, sessionId }) => {
        await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
        await prompt(ctx, sessionId, "Plan the notes");
      },
      { box, policy: choose("reject_once") },
    );
    const [plan] = cards(r.live);
    expect(plan).toMatchObject({ name: "ExitPlanMode", status: "failed" });
    expect(r.live.modeId).toBe("plan");
    expect(texts(r.live, "agent").at(-1)).toBe("Understood: what should change?");
    expect(JSON.stringify(server.requests[1]?.body)).toContain("wants to keep planning");
    expect(r.differences).toEqual([]);
  });
});

test("ExitPlanMode outside plan mode asks nothing and changes nothing", async () => {
  const kit = kits[0]!;
  const { server, box } = boxFor(kit);
  server.enqueue(presentPlan(kit), { sse: kit.text("Going on.") });
  const asked: RequestPermissionRequest[] = [];
  const r = await parity(
    modelRef(kit),
    async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Go");
    },
    { box, policy: answering("acceptEdits", asked) },
  );
  expect(asked).toEqual([]);
  expect(r.liveNotifications.some((n) => n.update.sessionUpdate === "current_mode_update")).toBe(false);
  expect(cards(r.live)[0]).toMatchObject({ name: "ExitPlanMode", status: "failed" });
  expect(JSON.stringify(server.requests[1]?.body)).toContain("not in plan mode");
  expect(r.differences).toEqual([]);
});

test("scripted/plan-approval: approved with default, the edit that follows is asked about; a reload shows the same", async () => {
  const box = sandbox("scripted/plan-approval");
  const asked: RequestPermissionRequest[] = [];
  const r = await parity(
    "scripted/plan-approval",
    async ({ ctx, sessionId }) => {
      await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
      expect((await prompt(ctx, sessionId, "Plan the notes")).stopReason).toBe("end_turn");
    },
    {
      box,
      policy: (request) => {
        asked.push(request);
        return answering(asked.length === 1 ? "default" : "allow_once", [])(request);
      },
    },
  );
  expect(asked.map((q) => q.toolCall.title)).toEqual(["Ready to code?", `Write ${box.workspace}/NOTES.md`]);
  expect(r.live.modeId).toBe("default");
  expect(cards(r.live).map((c) => `${c.name}:${c.status}`)).toEqual([
    "Read:completed",
    "ExitPlanMode:completed",
    "Write:completed",
  ]);
  expect(texts(r.live, "agent").at(-1)).toBe("Done: NOTES.md holds the summary.");
  expect(r.differences).toEqual([]);
});
