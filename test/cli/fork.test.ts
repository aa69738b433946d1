/**
 * Forks from the command line and on the wire: `verbatim fork ID` prints the new id, and
 * `sessions`, `show` and `session/list` say which session a fork came from.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { join } from "node:path";
import { connectProcess, newSession, prompt } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { rawAgent } from "../support/raw-client.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

let box: Sandbox;
let parent: string;
let forked: string;

beforeAll(async () => {
  box = sandbox("scripted/demo");
  const c = await connectProcess(box.env);
  try {
    parent = (await newSession(c.ctx, box.workspace)).sessionId;
    await prompt(c.ctx, parent, "Read the README");
  } finally {
    await c.close();
  }
  const result = await runCli(["fork", parent], box.env);
  expect(result.code).toBe(0);
  forked = result.stdout.trim();
});

describe("verbatim fork", () => {
  test("prints the new session's id, and nothing else", () => {
    expect(forked).toMatch(/^ses_[0-9a-z]+$/);
    expect(forked).not.toBe(parent);
  });

  test("sessions lists the fork, saying whose fork it is", async () => {
    const { stdout } = await runCli(["sessions"], box.env);
    const line = stdout.split("\n").find((l) => l.startsWith(forked));
    expect(line).toEndWith(`(fork of ${parent})`);
    expect(stdout.split("\n").find((l) => l.startsWith(parent))).not.toContain("fork of");
    const json = (await runCli(["sessions", "--json"], box.env)).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { sessionId: string; forkOf?: unknown });
    expect(json.find((row) => row.sessionId === forked)?.forkOf).toEqual({
      sessionId: parent,
      seq: expect.any(Number),
    });
  });

  test("show says whose fork it is, then draws the parent's transcript under the fork's own title", async () => {
    const ofParent = (await runCli(["show", parent], box.env)).stdout;
    const ofFork = (await runCli(["show", forked], box.env)).stdout;
    const [header, blank, title, ...rest] = ofFork.split("\n");
    expect(header).toMatch(new RegExp(`^fork of ${parent} \\(its first \\d+ records\\)$`));
    expect(blank).toBe("");
    const [parentTitle, ...parentRest] = ofParent.split("\n");
    expect(parentTitle).toBe("# Read the README");
    expect(title).toBe("# Read the README (fork)");
    expect(rest).toEqual(parentRest);
  });

  test("an unknown session is an error in the user's words", async () => {
    const result = await runCli(["fork", "ses_nothing"], box.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `verbatim: there is no session ses_nothing in the journal at ${join(box.home, "journal.db")}. \`verbatim sessions\` lists the recorded sessions.\n`,
    );
  });

  test("--at MESSAGE forks up to that message: the fork shows the prompt and not what followed it", async () => {
    const ids = (await runCli(["show", parent, "--ids"], box.env)).stdout.trim().split("\n");
    const prompt = ids.find((line) => / user /.test(line))?.split(" ")[0] ?? "";
    expect(prompt).toMatch(/^msg_/);
    const result = await runCli(["fork", parent, "--at", prompt], box.env);
    expect(result.code).toBe(0);
    const atPrompt = result.stdout.trim();
    const forkIds = (await runCli(["show", atPrompt, "--ids"], box.env)).stdout.trim().split("\n");
    expect(forkIds).toEqual(ids.filter((line) => line.startsWith(prompt)));
    expect(ids.length).toBeGreaterThan(1);
  });

  test("--at a message the session does not show is an error naming where the ids are", async () => {
    const result = await runCli(["fork", parent, "--at", "msg_nothing"], box.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `verbatim: session ${parent} shows no message msg_nothing. \`verbatim show ID --ids\` lists the session's message ids.\n`,
    );
  });
});

describe("session/fork on the wire", () => {
  test("initialize advertises sessionCapabilities.fork", async () => {
    const agent = rawAgent(box.env);
    try {
      const init = await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      expect(
        (init.result as { agentCapabilities: { sessionCapabilities: Record<string, unknown> } }).agentCapabilities
          .sessionCapabilities.fork,
      ).toEqual({ atMessageId: true });
    } finally {
      await agent.close();
    }
  });

  test("session/list names a fork's origin under _meta.verbatim", async () => {
    const c = await connectProcess(box.env);
    try {
      const { sessions } = await c.ctx.request(acp.methods.agent.session.list, {});
      const forkOf = (id: string) =>
        (sessions.find((s) => s.sessionId === id)?._meta?.verbatim as { forkOf?: unknown } | undefined)?.forkOf;
      expect(forkOf(forked)).toEqual({ sessionId: parent, seq: expect.any(Number) });
      expect(forkOf(parent)).toBeUndefined();
    } finally {
      await c.close();
    }
  });
});
