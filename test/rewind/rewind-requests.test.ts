/**
 * After a rewind the model is sent what it was sent at that point: the next turn's request equals
 * the one the session sent for the same prompt from there, on all three wires; an edited prompt's
 * request is that request with the new text.
 */
import { describe, expect, test } from "bun:test";
import { connectInProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { fixtureServer, type FixtureServer } from "../support/fixture-server.ts";
import { kits, modelRef, type Kit } from "../support/provider-kits.ts";
import { editPrompt, rewind } from "../support/rewind.ts";
import { answerBefore, messageIds } from "../support/view-cut.ts";
import { sandbox } from "../support/workspace.ts";

/** A turn that reads the README (thinking, a call, then an answer), queued on the fixture server. */
function readTurn(server: FixtureServer, kit: Kit, readme: string): void {
  server.enqueue(
    {
      sse: kit.thinkingThenCalls("Read it before answering.", "Let me look. ", [
        { id: "call_readme", name: "Read", input: { file_path: readme } },
      ]),
    },
    { sse: kit.thinkingThenText("Four lines; say so.", "It has four lines.") },
  );
}

describe.each(kits)("$kind: after a rewind", (kit) => {
  test("the next turn sends the request the session sent for that prompt from that point", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(kit));
    Object.assign(box.env, kit.env(server));
    const live = await connectInProcess(box.env);
    try {
      const sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
      readTurn(server, kit, `${box.workspace}/README.md`);
      await prompt(live.ctx, sessionId, "Read the README");
      server.enqueue({ sse: kit.text("You're welcome.") }, { sse: kit.text("Bye.") });
      await prompt(live.ctx, sessionId, "PROMPT-THANKS");
      const then = server.requests.at(-1)?.body;
      await prompt(live.ctx, sessionId, "Bye");
      await rewind(live.ctx, { sessionId, toMessageId: answerBefore(live.client.view(sessionId), 1) });
      server.enqueue({ sse: kit.text("You're welcome.") });
      await prompt(live.ctx, sessionId, "PROMPT-THANKS");
      expect(server.requests.length).toBe(5);
      expect(server.requests.at(-1)?.body).toEqual(then);
      expect(JSON.stringify(then)).toContain("call_readme");
    } finally {
      await live.close();
    }
  });

  test("a rewind that restores files sends the same request: its card never reaches the model", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(kit));
    Object.assign(box.env, kit.env(server));
    const live = await connectInProcess(box.env);
    try {
      const sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
      readTurn(server, kit, `${box.workspace}/README.md`);
      await prompt(live.ctx, sessionId, "Read the README");
      server.enqueue({ sse: kit.text("You're welcome.") });
      await prompt(live.ctx, sessionId, "PROMPT-THANKS");
      const then = server.requests.at(-1)?.body;
      const answer = await rewind(live.ctx, {
        sessionId,
        toMessageId: answerBefore(live.client.view(sessionId), 1),
        files: true,
      });
      expect(answer._meta.verbatim.files).toBeDefined();
      server.enqueue({ sse: kit.text("You're welcome.") });
      await prompt(live.ctx, sessionId, "PROMPT-THANKS");
      expect(server.requests.at(-1)?.body).toEqual(then);
    } finally {
      await live.close();
    }
  });

  test("an edited prompt sends that request with the new text", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(kit));
    Object.assign(box.env, kit.env(server));
    const live = await connectInProcess(box.env);
    try {
      const sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
      readTurn(server, kit, `${box.workspace}/README.md`);
      await prompt(live.ctx, sessionId, "Read the README");
      server.enqueue({ sse: kit.text("You're welcome.") });
      await prompt(live.ctx, sessionId, "PROMPT-THANKS");
      const then = JSON.stringify(server.requests.at(-1)?.body);
      const messageId = messageIds(live.client.view(sessionId), "user")[1]!;
      server.enqueue({ sse: kit.text("You're welcome.") });
      await editPrompt(live.ctx, { sessionId, messageId, newContent: [{ type: "text", text: "PROMPT-EDITED" }] });
      expect(server.requests.length).toBe(4);
      expect(JSON.stringify(server.requests.at(-1)?.body)).toBe(then.replace("PROMPT-THANKS", "PROMPT-EDITED"));
    } finally {
      await live.close();
    }
  });

  test("a session reopened after a rewind sends the same request", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(kit));
    Object.assign(box.env, kit.env(server));
    let sessionId = "";
    let then: unknown;
    const live = await connectInProcess(box.env);
    try {
      sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
      readTurn(server, kit, `${box.workspace}/README.md`);
      await prompt(live.ctx, sessionId, "Read the README");
      server.enqueue({ sse: kit.text("You're welcome.") }, { sse: kit.text("Bye.") });
      await prompt(live.ctx, sessionId, "PROMPT-THANKS");
      then = server.requests.at(-1)?.body;
      await prompt(live.ctx, sessionId, "Bye");
      await rewind(live.ctx, { sessionId, toMessageId: answerBefore(live.client.view(sessionId), 1) });
    } finally {
      await live.close();
    }
    const fresh = await connectInProcess(box.env);
    try {
      await load(fresh.ctx, sessionId, box.workspace);
      server.enqueue({ sse: kit.text("You're welcome.") });
      await prompt(fresh.ctx, sessionId, "PROMPT-THANKS");
      expect(server.requests.at(-1)?.body).toEqual(then);
    } finally {
      await fresh.close();
    }
  });
});
