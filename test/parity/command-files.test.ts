/**
 * Slash commands: `/compact` and the project's own prompt files, offered with
 * `available_commands_update` (a fact: replayed before the load response), carried out when a
 * prompt starts with one, and reopened as they were shown.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectProcess, load, newSession, prompt, until } from "../support/acp-session.ts";
import { initializedRawAgent } from "../support/raw-client.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { parity, texts } from "./harness.ts";

function withCommands(box: Sandbox): Sandbox {
  mkdirSync(join(box.workspace, ".verbatim", "commands"), { recursive: true });
  mkdirSync(join(box.workspace, ".claude", "commands"), { recursive: true });
  writeFileSync(
    join(box.workspace, ".verbatim", "commands", "greet.md"),
    "---\ndescription: Greets someone by name\nargument-hint: <name>\n---\nSay hello to $ARGUMENTS in one line.\n",
  );
  writeFileSync(join(box.workspace, ".claude", "commands", "review.md"), "Review the latest change for bugs.\n");
  // A name the .verbatim folder already has: the .verbatim file wins.
  writeFileSync(join(box.workspace, ".claude", "commands", "greet.md"), "Not this one.\n");
  return box;
}

/** The agent's answers, without the notices about the setup (what was offered, the clash of the two greet files). */
const answers = (view: Parameters<typeof texts>[0]) =>
  texts(view, "agent").filter((t) => !t.startsWith("Context: ") && !t.startsWith("Two definitions of "));

const commandNames = (view: { commands: { name: string }[] | null }) => view.commands?.map((c) => c.name);

describe("slash commands", () => {
  test("the project's commands are offered with /compact, and a command's text is what the model reads", async () => {
    const box = withCommands(sandbox("scripted/echo"));
    const r = await parity(
      "scripted/echo",
      async ({ ctx, sessionId, client }) => {
        await until(() => client.view(sessionId).commands !== null, "the commands");
        expect((await prompt(ctx, sessionId, "/greet Ada")).stopReason).toBe("end_turn");
      },
      { box },
    );
    expect(r.live.commands).toEqual([
      { name: "compact", description: expect.any(String), input: { hint: "what the summary should keep (optional)" } },
      { name: "context", description: expect.any(String) },
      { name: "greet", description: "Greets someone by name", input: { hint: "<name>" } },
      { name: "review", description: "Review the latest change for bugs." },
    ]);
    expect(texts(r.live, "user")).toEqual(["/greet Ada"]);
    expect(answers(r.live)).toEqual(["You said: Say hello to Ada in one line.\n"]);
    expect(texts(r.live, "agent")).toContain(
      `Two definitions of /greet: ${join(box.workspace, ".claude", "commands", "greet.md")} is not used: ${join(box.workspace, ".verbatim", "commands", "greet.md")} takes precedence over ${join(box.workspace, ".claude", "commands", "greet.md")}.`,
    );
    expect(r.differences).toEqual([]);
  });

  test("a command without $ARGUMENTS gets its arguments appended; an unknown /word is an ordinary prompt", async () => {
    const box = withCommands(sandbox("scripted/echo"));
    const r = await parity(
      "scripted/echo",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "/review the parser");
        await prompt(ctx, sessionId, "/usr/bin/env is a path");
      },
      { box },
    );
    expect(answers(r.live)).toEqual([
      "You said: Review the latest change for bugs.\n\nARGUMENTS: the parser",
      "You said: /usr/bin/env is a path",
    ]);
    expect(r.differences).toEqual([]);
  });

  test("a command added while the session is open is offered from the next prompt on, and reopened so", async () => {
    const box = withCommands(sandbox("scripted/echo"));
    const r = await parity(
      "scripted/echo",
      async ({ ctx, sessionId, client }) => {
        await until(() => client.view(sessionId).commands !== null, "the commands");
        writeFileSync(join(box.workspace, ".verbatim", "commands", "ship.md"), "Prepare a release of $ARGUMENTS.\n");
        await prompt(ctx, sessionId, "/ship 1.2");
        expect(commandNames(client.view(sessionId))).toEqual(["compact", "context", "greet", "ship", "review"]);
      },
      { box },
    );
    expect(answers(r.live)).toEqual(["You said: Prepare a release of 1.2.\n"]);
    expect(commandNames(r.reloaded)).toEqual(["compact", "context", "greet", "ship", "review"]);
    expect(r.differences).toEqual([]);
  });

  test("after session/new the commands go out right after the response; a load sends them before its response", async () => {
    const box = withCommands(sandbox("scripted/echo"));
    const agent = await initializedRawAgent(box.env);
    let sessionId = "";
    try {
      const created = await agent.request("session/new", { cwd: box.workspace, mcpServers: [] });
      sessionId = (created.result as { sessionId: string }).sessionId;
      const at = agent.messages.indexOf(created);
      await until(() => agent.messages.some((m) => m.method === "session/update"), "the commands update");
      const updates = agent.messages.filter((m) => m.method === "session/update");
      expect(agent.messages.indexOf(updates[0]!)).toBeGreaterThan(at);
      expect((updates[0]!.params as { update: { sessionUpdate: string } }).update.sessionUpdate).toBe(
        "available_commands_update",
      );
    } finally {
      await agent.close();
    }
    const reopened = await initializedRawAgent(box.env);
    try {
      const loaded = await reopened.request("session/load", { sessionId, cwd: box.workspace, mcpServers: [] });
      const before = reopened.messages.slice(0, reopened.messages.indexOf(loaded));
      expect(
        before.some(
          (m) =>
            (m.params as { update?: { sessionUpdate: string } } | undefined)?.update?.sessionUpdate ===
            "available_commands_update",
        ),
      ).toBe(true);
    } finally {
      await reopened.close();
    }
  });

  test("a command file changed since shows the old invocation as it was and changes only later ones", async () => {
    const box = withCommands(sandbox("scripted/echo"));
    const first = await connectProcess(box.env);
    const { sessionId } = await newSession(first.ctx, box.workspace);
    await prompt(first.ctx, sessionId, "/greet Ada");
    await first.close();
    writeFileSync(join(box.workspace, ".verbatim", "commands", "greet.md"), "Say goodbye to $ARGUMENTS.\n");
    const second = await connectProcess(box.env);
    try {
      await load(second.ctx, sessionId, box.workspace);
      expect(answers(second.client.view(sessionId))).toEqual(["You said: Say hello to Ada in one line.\n"]);
      await prompt(second.ctx, sessionId, "/greet Bo");
      expect(texts(second.client.view(sessionId), "agent").at(-1)).toBe("You said: Say goodbye to Bo.\n");
    } finally {
      await second.close();
    }
  });
});
