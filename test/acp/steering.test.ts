/**
 * Steering (`_session/steering`, as the Claude and Codex adapters serve it): text sent while the
 * agent works reaches the model at its next step, recorded where it landed; on an idle session it
 * starts a turn of its own. Driven through the agent in a process, on each provider wire against
 * its recorded streams on loopback; a fresh process reopens the session.
 */
import * as acp from "@agentclientprotocol/sdk";
import { rmSync } from "node:fs";
import { describe, expect, test } from "bun:test";
import type { ViewModel } from "../../src/view/view-model.ts";
import { openJournal } from "../../src/core/config/open-journal.ts";
import { connectInProcess, connectProcess, load, newSession, prompt, until } from "../support/acp-session.ts";
import { fixtureServer, type FixtureServer } from "../support/fixture-server.ts";
import { heldPermission } from "../support/held-permission.ts";
import { kits, modelRef, type Kit } from "../support/provider-kits.ts";
import { steer } from "../support/steer.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { parity, texts } from "../parity/harness.ts";

const STEERING = "Use a heading in the notes.";

/** The view's entries in order: `user:<text>`, `agent:<text>`, `tool:<name>`. */
function entries(view: ViewModel): string[] {
  return view.timeline.map((key) => {
    const [kind, id] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
    if (kind === "tool") return `tool:${view.toolCalls[id]?.name}`;
    const m = view.messages[id];
    return `${m?.role}:${m?.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("")}`;
  });
}

function boxFor(kit: Kit): { server: FixtureServer; box: Sandbox } {
  const server = fixtureServer();
  const box = sandbox(modelRef(kit));
  Object.assign(box.env, kit.env(server));
  return { server, box };
}

/** A turn that writes a new file (asking first: the test holds the question open), then answers. */
const writingTurn = (kit: Kit, box: Sandbox) => [
  {
    sse: kit.calls(
      [{ id: "call_write", name: "Write", input: { file_path: `${box.workspace}/notes.md`, content: "notes\n" } }],
      "Writing the notes. ",
    ),
  },
  { sse: kit.text("Done, with a heading.") },
];

/** Starts the writing turn, steers it while its call waits for permission, then lets the call run. */
async function steerBetweenSteps(ctx: acp.ClientContext, sessionId: string, held: ReturnType<typeof heldPermission>) {
  const turn = prompt(ctx, sessionId, "Write the notes");
  await held.asked();
  expect(await steer(ctx, sessionId, STEERING)).toEqual({ outcome: "injected" });
  held.release();
  expect((await turn).stopReason).toBe("end_turn");
}

describe.each(kits)("$kind: steering", (kit) => {
  test("text steered between two steps lands there: shown live, given to the model next, the same after a reload", async () => {
    const { server, box } = boxFor(kit);
    server.enqueue(...writingTurn(kit, box));
    const held = heldPermission();
    const r = await parity(modelRef(kit), ({ ctx, sessionId }) => steerBetweenSteps(ctx, sessionId, held), {
      box,
      policy: held.policy,
    });
    expect(entries(r.live)).toEqual([
      "user:Write the notes",
      "agent:Writing the notes. ",
      "tool:Write",
      `user:${STEERING}`,
      "agent:Done, with a heading.",
    ]);
    expect(r.differences).toEqual([]);
    // The second request holds the text after the call's result, as the last thing the model is given.
    expect(server.requests.length).toBe(2);
    const body = JSON.stringify(server.requests[1]?.body);
    expect(body.lastIndexOf(STEERING)).toBeGreaterThan(body.lastIndexOf("call_write"));
    expect(JSON.stringify(server.requests[0]?.body)).not.toContain(STEERING);
  });

  test("after a reload, the next request holds the steering where a never-reloaded session has it", async () => {
    const { server, box } = boxFor(kit);
    const held = heldPermission();
    const next = () => ({ sse: kit.text("You're welcome.") });
    const live = await connectProcess(box.env, { policy: held.policy });
    let reopened = "";
    let neverReloaded: unknown;
    try {
      const kept = (await newSession(live.ctx, box.workspace)).sessionId;
      server.enqueue(...writingTurn(kit, box), next());
      await steerBetweenSteps(live.ctx, kept, held);
      await prompt(live.ctx, kept, "Thanks");
      neverReloaded = server.requests.at(-1)?.body;
      reopened = (await newSession(live.ctx, box.workspace)).sessionId;
      // The same turn again, on a new file as the first one was (the model's requests must match).
      rmSync(`${box.workspace}/notes.md`);
      server.enqueue(...writingTurn(kit, box));
      await steerBetweenSteps(live.ctx, reopened, held);
    } finally {
      await live.close();
    }
    const fresh = await connectProcess(box.env);
    try {
      await load(fresh.ctx, reopened, box.workspace);
      server.enqueue(next());
      expect((await prompt(fresh.ctx, reopened, "Thanks")).stopReason).toBe("end_turn");
    } finally {
      await fresh.close();
    }
    expect(server.requests.length).toBe(6);
    expect(server.requests.at(-1)?.body).toEqual(neverReloaded);
    expect(JSON.stringify(neverReloaded)).toContain(STEERING);
  });

  test("text steered after the turn's last step starts the next turn, journaled with no session/prompt", async () => {
    const { server, box } = boxFor(kit);
    server.enqueue({ sse: kit.text("Hello.") }, { sse: kit.text("A heading it is.") });
    let steeredPromptId = "";
    const r = await parity(
      modelRef(kit),
      async ({ ctx, client, sessionId }) => {
        expect((await prompt(ctx, sessionId, "Hi")).stopReason).toBe("end_turn");
        expect(await steer(ctx, sessionId, STEERING)).toEqual({ outcome: "startedNewTurn" });
        await until(() => texts(client.view(sessionId), "agent").length === 2, "the steered turn's answer");
        // Its turn ends on its own; a prompt sent now waits for it, then runs.
        server.enqueue({ sse: kit.text("Third.") });
        expect((await prompt(ctx, sessionId, "And then?")).stopReason).toBe("end_turn");
        const store = openJournal(box.env);
        try {
          const facts = await Array.fromAsync(store.readPages(sessionId));
          const prompts = facts.flat().flatMap(({ fact }) => (fact.kind === "prompt_received" ? [fact] : []));
          expect(prompts.map((p) => p.steered ?? false)).toEqual([false, true, false]);
          steeredPromptId = prompts[1]?.messageId ?? "";
        } finally {
          await store.close();
        }
      },
      { box },
    );
    expect(entries(r.live)).toEqual([
      "user:Hi",
      "agent:Hello.",
      `user:${STEERING}`,
      "agent:A heading it is.",
      "user:And then?",
      "agent:Third.",
    ]);
    expect(r.live.timeline).toContain(`message:${steeredPromptId}`);
    expect(r.differences).toEqual([]);
    expect(JSON.stringify(server.requests[1]?.body)).toContain(STEERING);
  });
});

describe("steering an idle session", () => {
  test("with idleBehavior promptRequired, nothing is taken and the client is told to prompt", async () => {
    const box = sandbox("scripted/plain");
    const c = await connectInProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await until(() => c.client.view(sessionId).commands !== null, "the session's commands");
      const before = c.client.notifications.length;
      expect(await steer(c.ctx, sessionId, STEERING, { idleBehavior: "promptRequired" })).toEqual({
        outcome: "promptRequired",
        reason: "noRunningTurn",
      });
      await Bun.sleep(50);
      expect(c.client.notifications.length).toBe(before);
    } finally {
      await c.close();
    }
  });
});

test("text steered while the last step streams takes the turn one more step; its prompt answers once", async () => {
  const box = sandbox("scripted/slow");
  const c = await connectInProcess(box.env);
  try {
    const { sessionId } = await newSession(c.ctx, box.workspace);
    const turn = prompt(c.ctx, sessionId, "Tell me at length");
    await until(
      () => c.client.notifications.some((n) => n.update.sessionUpdate === "agent_message_chunk"),
      "the answer streaming",
    );
    expect(await steer(c.ctx, sessionId, STEERING)).toEqual({ outcome: "injected" });
    expect((await turn).stopReason).toBe("end_turn");
    const view = c.client.view(sessionId);
    expect(texts(view, "user")).toEqual(["Tell me at length", STEERING]);
    // The steering landed after the step that was streaming, and the model answered it in the same turn.
    const roles = entries(view)
      .map((e) => e.slice(0, e.indexOf(":")))
      .filter((role) => role !== "thought");
    expect(roles).toEqual(["user", "agent", "user", "agent"]);
  } finally {
    await c.close();
  }
});

test("initialize advertises steering where the adapters do: the result's own _meta", async () => {
  const box = sandbox("scripted/plain");
  const c = await connectProcess(box.env);
  try {
    const init = await c.ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    expect(init._meta).toEqual({ steering: { supported: true } });
  } finally {
    await c.close();
  }
});
