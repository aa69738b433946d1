/**
 * The parity tests of the core, run for each real adapter: a verbatim process streams from a
 * loopback fixture through the provider's SDK; a fresh process reopens the session; the two
 * clients' view models are equal field by field.
 */
import { describe, expect, test } from "bun:test";
import { connectProcess, load, newSession, prompt, until } from "../support/acp-session.ts";
import { fixtureServer, type FixtureServer } from "../support/fixture-server.ts";
import { kits, modelRef, type Kit } from "../support/provider-kits.ts";
import { anthropicStream, cut } from "../support/sse/anthropic.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { cards, parity, texts } from "./harness.ts";

function boxFor(kit: Kit): { server: FixtureServer; box: Sandbox } {
  const server = fixtureServer();
  const box = sandbox(modelRef(kit));
  Object.assign(box.env, kit.env(server));
  return { server, box };
}

describe.each(kits)("$kind: a reopened session shows exactly what was shown live", (kit) => {
  test("thinking then answer", async () => {
    const { server, box } = boxFor(kit);
    server.enqueue({
      sse: kit.thinkingThenText("The user wants a short answer. I'll keep it brief.", "Here is a brief answer."),
    });
    const r = await parity(
      modelRef(kit),
      async ({ ctx, sessionId }) => {
        expect((await prompt(ctx, sessionId, "Think first")).stopReason).toBe("end_turn");
      },
      { box },
    );
    expect(texts(r.live, "thought")).toEqual(["The user wants a short answer. I'll keep it brief."]);
    expect(texts(r.live, "agent")).toEqual(["Here is a brief answer."]);
    expect(r.live.usage?.used).toBeGreaterThan(0);
    expect(r.differences).toEqual([]);
  });

  test("a tool call, its result, and the answer", async () => {
    const { server, box } = boxFor(kit);
    const readme = `${box.workspace}/README.md`;
    server.enqueue(
      {
        sse: kit.thinkingThenCalls("I should read the README first.", "Reading the README. ", [
          { id: "call_readme", name: "Read", input: { file_path: readme } },
        ]),
      },
      { sse: kit.text("The README is four lines long.") },
    );
    const r = await parity(
      modelRef(kit),
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "Read the README");
      },
      { box },
    );
    const [card] = cards(r.live);
    expect(card).toMatchObject({ name: "Read", kind: "read", status: "completed", rawInput: { file_path: readme } });
    expect(card?.locations).toEqual([{ path: readme, line: 1 }]);
    expect(card?.toolCallId).not.toBe("call_readme");
    expect(texts(r.live, "agent")).toEqual(["Reading the README. ", "The README is four lines long."]);
    expect(r.differences).toEqual([]);
  });

  test("a step that fails after partial output keeps what was shown", async () => {
    const { server, box } = boxFor(kit);
    const full = kit.text("Starting the answer, and then the connection drops before the end.");
    const shown = Promise.withResolvers<void>();
    server.enqueue({ sse: cut(full, Math.ceil(full.length / 2)), drop: shown.promise });
    const r = await parity(
      modelRef(kit),
      async ({ ctx, client, sessionId }) => {
        const turn = prompt(ctx, sessionId, "Go");
        await until(
          () => client.notifications.some((n) => n.update.sessionUpdate === "agent_message_chunk"),
          "the first answer chunk",
        );
        shown.resolve();
        await expect(turn).rejects.toMatchObject({ code: -32603 });
      },
      { box },
    );
    const [partial, notice] = texts(r.live, "agent");
    expect(partial!.length).toBeGreaterThan(0);
    expect("Starting the answer, and then the connection drops before the end.").toStartWith(partial!);
    expect(notice).toContain("The model provider failed");
    expect(server.requests.length).toBe(1);
    expect(r.differences).toEqual([]);
  });
});

describe("anthropic: redacted thinking", () => {
  test("the notice shown live is shown again on reload; the data never is", async () => {
    const kit = kits[0]!;
    const { server, box } = boxFor(kit);
    server.enqueue({
      sse: anthropicStream([
        { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix-redacted" },
        { type: "text", text: "Here it is." },
      ]),
    });
    const r = await parity(
      modelRef(kit),
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "Go");
      },
      { box },
    );
    const [notice, answer] = texts(r.live, "agent");
    expect(notice).toContain("redacted");
    expect(answer).toBe("Here it is.");
    expect(JSON.stringify(r.reloaded)).not.toContain("EmwKAhgB");
    expect(r.differences).toEqual([]);
  });
});

// Reopening in a fresh process must not need the fixture: loading never calls the provider.
test("loading a provider session makes no provider request", async () => {
  const kit = kits[0]!;
  const { server, box } = boxFor(kit);
  server.enqueue({ sse: kit.text("ok") });
  const live = await connectProcess(box.env);
  const { sessionId } = await newSession(live.ctx, box.workspace);
  await prompt(live.ctx, sessionId, "Hi");
  await live.close();
  const fresh = await connectProcess(box.env);
  try {
    await load(fresh.ctx, sessionId, box.workspace);
    expect(server.requests.length).toBe(1);
  } finally {
    await fresh.close();
  }
});
