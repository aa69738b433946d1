/**
 * Permission rules read from the settings files users already keep (Claude Code's and verbatim's
 * own), driven through the real agent process: a deny refuses without a question, an allow runs
 * unasked, an ask asks, a compound command with one denied part is refused, each card names the
 * rule that decided (live and after a reload), and bad rules are named and never widen anything.
 */
import { requestExtension, STEERING_METHOD } from "../../src/protocol/extensions.ts";
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { cards, parity, texts } from "../parity/harness.ts";
import { connectProcess, newSession, prompt, type Connected } from "../support/acp-session.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { heldPermission } from "../support/held-permission.ts";
import { chatKit, modelRef } from "../support/provider-kits.ts";
import { runCli } from "../support/cli-process.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const SECRET = "API_TOKEN=sk-live-7f3e9c";
const call = (tool: string, args: unknown) => `${tool} ${JSON.stringify(args)}`;
const journalText = (box: Sandbox) => readFileSync(join(box.home, "journal.db")).toString("latin1");
const shown = (c: Connected, sessionId: string) => JSON.stringify(c.client.view(sessionId));
const lastCard = (c: Connected, sessionId: string) => cards(c.client.view(sessionId)).pop();
const cardText = (card: unknown) => JSON.stringify((card as { content?: unknown } | undefined)?.content ?? null);

type Permissions = { allow?: string[]; ask?: string[]; deny?: string[]; defaultMode?: string };

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
}
const projectSettings = (box: Sandbox, permissions: Permissions) =>
  writeJson(join(box.workspace, ".claude", "settings.json"), { permissions });
const userSettings = (box: Sandbox, permissions: Permissions) =>
  writeJson(join(box.userHome, ".claude", "settings.json"), { permissions });

async function session(box: Sandbox, policy: Parameters<typeof choose>[0] = "reject_once") {
  const c = await connectProcess(box.env, { policy: choose(policy) });
  const { sessionId } = await newSession(c.ctx, box.workspace);
  return { c, sessionId };
}

describe("a deny on .env", () => {
  test("Read of .env is refused without a question, the card names the rule, and the secret is nowhere", async () => {
    const box = sandbox("scripted/call");
    writeFileSync(join(box.workspace, ".env"), `${SECRET}\n`);
    projectSettings(box, { deny: ["Read(./.env)"] });
    const { c, sessionId } = await session(box, "allow_once");
    try {
      await prompt(c.ctx, sessionId, call("Read", { file_path: join(box.workspace, ".env") }));
      expect(c.client.permissionRequests.length).toBe(0);
      const card = lastCard(c, sessionId);
      expect(card?.status).toBe("failed");
      expect(cardText(card)).toContain(
        `Refused by rule Read(./.env) (project: ${join(box.workspace, ".claude", "settings.json")})`,
      );
      expect(shown(c, sessionId)).not.toContain(SECRET);
      expect(journalText(box)).not.toContain(SECRET);
    } finally {
      await c.close();
    }
  });
});

describe("a deny on .env holds everywhere", () => {
  test("Grep of the workspace shows no .env line, and Glob lists no .env", async () => {
    const box = sandbox("scripted/call");
    writeFileSync(join(box.workspace, ".env"), `${SECRET}\n`);
    writeFileSync(join(box.workspace, "notes.txt"), "API_TOKEN is documented here\n");
    projectSettings(box, { deny: ["Read(./.env)"] });
    const { c, sessionId } = await session(box);
    try {
      await prompt(c.ctx, sessionId, call("Grep", { pattern: "API_TOKEN", output_mode: "content" }));
      const grep = cardText(lastCard(c, sessionId));
      expect(grep).toContain("notes.txt");
      expect(grep).not.toContain(".env");
      expect(grep).not.toContain("sk-live");
      await prompt(c.ctx, sessionId, call("Glob", { pattern: "**/.*" }));
      expect(cardText(lastCard(c, sessionId))).not.toContain(".env");
      expect(journalText(box)).not.toContain("sk-live");
    } finally {
      await c.close();
    }
  });

  test("a prompt's embedded .env is withheld from the model, and the client sees its prompt as sent", async () => {
    const box = sandbox("scripted/echo");
    const path = join(box.workspace, ".env");
    writeFileSync(path, `${SECRET}\n`);
    userSettings(box, { deny: ["Read(.env)"] });
    const { c, sessionId } = await session(box);
    try {
      await c.ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [
          { type: "text", text: "look at this " },
          { type: "resource", resource: { uri: `file://${path}`, text: `${SECRET}\n`, mimeType: "text/plain" } },
        ],
      });
      const answer = texts(c.client.view(sessionId), "agent").join("\n");
      expect(answer).toContain("withheld");
      expect(answer).toContain("Read(.env)");
      expect(answer).not.toContain("sk-live");
    } finally {
      await c.close();
    }
  });

  test("a prompt's link to .env is not read: the secret reaches neither the model nor the journal", async () => {
    const box = sandbox("scripted/echo");
    const path = join(box.workspace, ".env");
    writeFileSync(path, `${SECRET}\n`);
    userSettings(box, { deny: ["Read(.env)"] });
    const { c, sessionId } = await session(box);
    try {
      await c.ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [
          { type: "text", text: "look at this " },
          { type: "resource_link", uri: `file://${path}`, name: ".env" },
        ],
      });
      const view = shown(c, sessionId);
      expect(view).toContain("a deny rule refuses reading it (Read(.env))");
      expect(texts(c.client.view(sessionId), "agent").join("\n")).not.toContain("sk-live");
      expect(journalText(box)).not.toContain("sk-live");
    } finally {
      await c.close();
    }
  });

  test("a steering text's embedded .env is withheld from the model, as a prompt's is", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(chatKit));
    Object.assign(box.env, chatKit.env(server));
    const path = join(box.workspace, ".env");
    writeFileSync(path, `${SECRET}\n`);
    userSettings(box, { deny: ["Read(.env)"] });
    server.enqueue(
      {
        sse: chatKit.calls([
          { id: "call_write", name: "Write", input: { file_path: join(box.workspace, "n.md"), content: "n\n" } },
        ]),
      },
      { sse: chatKit.text("Done.") },
    );
    const held = heldPermission();
    const c = await connectProcess(box.env, { policy: held.policy });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      const turn = prompt(c.ctx, sessionId, "Write the notes");
      await held.asked();
      expect(
        await requestExtension(c.ctx, STEERING_METHOD, {
          sessionId,
          prompt: [
            { type: "text", text: "and mind this " },
            { type: "resource", resource: { uri: `file://${path}`, text: `${SECRET}\n`, mimeType: "text/plain" } },
          ],
        }),
      ).toEqual({ outcome: "injected" });
      held.release();
      expect((await turn).stopReason).toBe("end_turn");
      const second = JSON.stringify(server.requests[1]?.body);
      expect(second).toContain("and mind this");
      expect(second).toContain("Read(.env)");
      expect(second).not.toContain("sk-live");
    } finally {
      await c.close();
    }
  });

  test("a subagent's reads are held to the same deny", async () => {
    const box = sandbox("scripted/call");
    writeFileSync(join(box.workspace, ".env"), `${SECRET}\n`);
    userSettings(box, { deny: ["Read(./.env)"] });
    const { c, sessionId } = await session(box, "allow_once");
    try {
      await prompt(
        c.ctx,
        sessionId,
        call("Task", {
          description: "peek",
          prompt: `Read ${JSON.stringify({ file_path: join(box.workspace, ".env") })}`,
          subagent_type: "general-purpose",
        }),
      );
      expect(shown(c, sessionId)).not.toContain("sk-live");
      expect(journalText(box)).not.toContain("sk-live");
      expect(cardText(lastCard(c, sessionId))).toContain("refused by a saved permission rule");
    } finally {
      await c.close();
    }
  });
});

describe("allow and ask rules", () => {
  test("a command an allowed prefix covers runs unasked, and its card names the rule", async () => {
    const box = sandbox("scripted/call");
    userSettings(box, { allow: ["Bash(echo:*)"] });
    const { c, sessionId } = await session(box);
    try {
      await prompt(c.ctx, sessionId, call("Bash", { command: "echo allowed-by-prefix" }));
      expect(c.client.permissionRequests.length).toBe(0);
      const card = lastCard(c, sessionId);
      expect(card?.status).toBe("completed");
      expect(cardText(card)).toContain("Allowed by rule Bash(echo:*) (user:");
    } finally {
      await c.close();
    }
  });

  test("git push under an ask rule asks, even when an allow covers it and permissions are bypassed", async () => {
    const box = sandbox("scripted/call");
    userSettings(box, { allow: ["Bash(git:*)"], ask: ["Bash(git push:*)"], defaultMode: "bypassPermissions" });
    const { c, sessionId } = await session(box, "reject_once");
    try {
      await prompt(c.ctx, sessionId, call("Bash", { command: "git push origin main" }));
      expect(c.client.permissionRequests.length).toBe(1);
      expect(cardText(lastCard(c, sessionId))).toContain("Asked by rule Bash(git push:*)");
    } finally {
      await c.close();
    }
  });

  test("a compound command with one denied part is refused, though an allow covers the rest", async () => {
    const box = sandbox("scripted/call");
    userSettings(box, { allow: ["Bash(echo:*)"], deny: ["Bash(rm:*)"] });
    writeFileSync(join(box.workspace, "keep.txt"), "kept\n");
    const { c, sessionId } = await session(box, "allow_once");
    try {
      await prompt(c.ctx, sessionId, call("Bash", { command: "echo hi && rm keep.txt" }));
      expect(c.client.permissionRequests.length).toBe(0);
      expect(readFileSync(join(box.workspace, "keep.txt"), "utf8")).toBe("kept\n");
      expect(cardText(lastCard(c, sessionId))).toContain("Refused by rule Bash(rm:*)");
    } finally {
      await c.close();
    }
  });

  test("a project's allow rules wait for trust; its deny rules hold at once", async () => {
    const box = sandbox("scripted/call");
    projectSettings(box, { allow: ["Bash(echo:*)"], deny: ["Bash(rm:*)"] });
    const { c, sessionId } = await session(box, "reject_once");
    try {
      await prompt(c.ctx, sessionId, call("Bash", { command: "echo from-an-untrusted-project" }));
      // Asked to trust the folder (not now), then about the command its allow rule would have run.
      expect(c.client.permissionRequests.map((r) => r.options[0]!.name)).toEqual(["Trust this folder", "Allow"]);
      await prompt(c.ctx, sessionId, call("Bash", { command: "rm README.md" }));
      expect(c.client.permissionRequests.length).toBe(2);
      expect(cardText(lastCard(c, sessionId))).toContain("Refused by rule Bash(rm:*)");
      expect(shown(c, sessionId)).toContain("Project allow rules not applied: this workspace is not trusted");
    } finally {
      await c.close();
    }
  });
});

describe("rules are facts", () => {
  test("a reload shows every card's deciding rule, exactly as live", async () => {
    const box = sandbox("scripted/call");
    userSettings(box, { allow: ["Bash(echo:*)"], deny: ["Read(./.env)"] });
    writeFileSync(join(box.workspace, ".env"), `${SECRET}\n`);
    const result = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, call("Bash", { command: "echo one" }));
        await prompt(ctx, sessionId, call("Read", { file_path: join(box.workspace, ".env") }));
        await prompt(ctx, sessionId, call("Bash", { command: "printf two" }));
      },
      { box, policy: choose("allow_once") },
    );
    expect(result.differences).toEqual([]);
    const lines = cards(result.reloaded).map((card) => cardText(card));
    expect(lines[0]).toContain("Allowed by rule Bash(echo:*)");
    expect(lines[1]).toContain("Refused by rule Read(./.env)");
    expect(lines[2]).toContain("Asked: no rule.");
  });

  test("a rule changed between turns is recorded again and decides the next turn", async () => {
    const box = sandbox("scripted/call");
    const { c, sessionId } = await session(box, "reject_once");
    try {
      await prompt(c.ctx, sessionId, call("Bash", { command: "echo first" }));
      expect(c.client.permissionRequests.length).toBe(1);
      userSettings(box, { allow: ["Bash(echo:*)"] });
      await prompt(c.ctx, sessionId, call("Bash", { command: "echo second" }));
      expect(c.client.permissionRequests.length).toBe(1);
      expect(lastCard(c, sessionId)?.status).toBe("completed");
    } finally {
      await c.close();
    }
  });
});

describe("where the rules are listed", () => {
  test("show lists the settings rules the session recorded, each with its file", async () => {
    const box = sandbox("scripted/call");
    userSettings(box, { allow: ["Bash(echo:*)"], deny: ["Read(./.env)"] });
    const { c, sessionId } = await session(box);
    try {
      await prompt(c.ctx, sessionId, call("Bash", { command: "echo listed" }));
    } finally {
      await c.close();
    }
    const shownText = (await runCli(["show", sessionId], box.env)).stdout;
    const file = join(box.userHome, ".claude", "settings.json");
    expect(shownText).toContain("permission rules from the settings files (as last recorded):");
    expect(shownText).toContain(`deny "Read(./.env)" from "${file}"`);
    expect(shownText).toContain(`allow "Bash(echo:*)" from "${file}"`);
  });

  test("doctor lists the rules in force and where each comes from, and names a bad one", async () => {
    const box = sandbox("scripted/call");
    userSettings(box, { allow: ["Bash(echo:*)"], deny: ["Read(./.env)", "Bash("] });
    const r = await runCli(["doctor"], box.env, { cwd: box.workspace });
    const file = join(box.userHome, ".claude", "settings.json");
    expect(r.stdout).toContain(`permission rules: ${file} (user): deny Read(./.env), deny Bash(, allow Bash(echo:*)`);
    expect(r.stdout).toContain("1 permission rule ignored");
  });
});

describe("always, as the user means it", () => {
  test("the two always options name the rule a user would write, and a project rule holds in the next session", async () => {
    const box = sandbox("scripted/call");
    writeJson(join(box.configHome, "verbatim", "config.json"), { trustedFolders: [box.workspace] });
    const project = (): acp.RequestPermissionResponse => ({
      outcome: { outcome: "selected", optionId: "allow_always_project" },
    });
    const first = await connectProcess(box.env, { policy: project });
    try {
      const { sessionId } = await newSession(first.ctx, box.workspace);
      await prompt(first.ctx, sessionId, call("Bash", { command: "npm run test -- --watch || true" }));
      const names = first.client.permissionRequests[0]!.options.map((o) => o.name);
      expect(names).toContain("Always allow Bash(npm run test:*), Bash(true) for this session");
      expect(names).toContain(
        "Always allow Bash(npm run test:*), Bash(true) in this project (.claude/settings.local.json)",
      );
    } finally {
      await first.close();
    }
    const local = JSON.parse(readFileSync(join(box.workspace, ".claude", "settings.local.json"), "utf8"));
    expect(local.permissions.allow).toEqual(["Bash(npm run test:*)", "Bash(true)"]);
    const { c, sessionId } = await session(box, "reject_once");
    try {
      await prompt(c.ctx, sessionId, call("Bash", { command: "npm run test -- --coverage || true" }));
      expect(c.client.permissionRequests.length).toBe(0);
      expect(cardText(lastCard(c, sessionId))).toContain("Allowed by rule Bash(npm run test:*)");
    } finally {
      await c.close();
    }
  });

  test("for this session: the rule holds for later calls of the session, and not in the next one", async () => {
    const box = sandbox("scripted/call");
    const { c, sessionId } = await session(box, "allow_always");
    try {
      await prompt(c.ctx, sessionId, call("Bash", { command: "git status --short" }));
      expect(c.client.permissionRequests.length).toBe(1);
      await prompt(c.ctx, sessionId, call("Bash", { command: "git status" }));
      expect(c.client.permissionRequests.length).toBe(1);
      expect(cardText(lastCard(c, sessionId))).toContain("Allowed by rule Bash(git status:*) (this session)");
    } finally {
      await c.close();
    }
  });
});

describe("trust from the editor", () => {
  const answering =
    (optionId: string) =>
    (request: acp.RequestPermissionRequest): acp.RequestPermissionResponse => ({
      outcome: request.options.some((o) => o.optionId === optionId)
        ? { outcome: "selected", optionId }
        : { outcome: "selected", optionId: "reject_once" },
    });

  test("an untrusted workspace's allow rules are asked about once, trusted, kept in the user config, and then hold", async () => {
    const box = sandbox("scripted/call");
    projectSettings(box, { allow: ["Bash(echo:*)"] });
    const first = await connectProcess(box.env, { policy: answering("trust") });
    try {
      const { sessionId } = await newSession(first.ctx, box.workspace);
      await prompt(first.ctx, sessionId, call("Bash", { command: "echo trusted-now" }));
      const questions = first.client.permissionRequests;
      expect(questions.length).toBe(1);
      expect(questions[0]!.options.map((o) => o.name)).toEqual(["Trust this folder", "Not now"]);
      expect(JSON.stringify(questions[0]!.toolCall)).toContain("allow Bash(echo:*)");
      expect(lastCard(first, sessionId)?.status).toBe("completed");
      expect(cardText(lastCard(first, sessionId))).toContain("Allowed by rule Bash(echo:*) (project:");
    } finally {
      await first.close();
    }
    const config = JSON.parse(readFileSync(join(box.configHome, "verbatim", "config.json"), "utf8"));
    expect(config.trustedFolders).toEqual([realpathSync(box.workspace)]);
    const { c, sessionId } = await session(box, "reject_once");
    try {
      await prompt(c.ctx, sessionId, call("Bash", { command: "echo again" }));
      expect(c.client.permissionRequests.length).toBe(0);
    } finally {
      await c.close();
    }
  });

  test("not now: nothing is trusted, the question is not asked again in the session, and the allow rules stay off", async () => {
    const box = sandbox("scripted/call");
    projectSettings(box, { allow: ["Bash(echo:*)"] });
    const c = await connectProcess(box.env, { policy: answering("not_now") });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, call("Bash", { command: "echo one" }));
      await prompt(c.ctx, sessionId, call("Bash", { command: "echo two" }));
      const asked = c.client.permissionRequests.map((r) => r.options[0]!.name);
      expect(asked.filter((name) => name === "Trust this folder").length).toBe(1);
      expect(asked.length).toBe(3);
    } finally {
      await c.close();
    }
    expect(existsSync(join(box.configHome, "verbatim", "config.json"))).toBe(false);
  });
});

describe("bad rules", () => {
  test("a rule that does not parse is named in a notice with its file, and ignored", async () => {
    const box = sandbox("scripted/call");
    userSettings(box, { allow: ["Bash(echo:*", "Write(./docs/**)"] });
    const { c, sessionId } = await session(box, "reject_once");
    try {
      const text = shown(c, sessionId);
      expect(text).toContain("2 permission rules ignored");
      expect(text).toContain('allow \\"Bash(echo:*\\"');
      expect(text).toContain("path rules on Write are never consulted");
      await prompt(c.ctx, sessionId, call("Bash", { command: "echo x" }));
      expect(c.client.permissionRequests.length).toBe(1);
    } finally {
      await c.close();
    }
  });

  test("a malformed deny makes its tool ask rather than run, even when an allow covers the call", async () => {
    const box = sandbox("scripted/call");
    userSettings(box, { allow: ["Bash(echo:*)"], deny: ["Bash(rm -rf"] });
    const { c, sessionId } = await session(box, "reject_once");
    try {
      await prompt(c.ctx, sessionId, call("Bash", { command: "echo x" }));
      expect(c.client.permissionRequests.length).toBe(1);
      expect(cardText(lastCard(c, sessionId))).toContain('the deny rule \\"Bash(rm -rf\\"');
    } finally {
      await c.close();
    }
  });

  test("a defaultMode verbatim has no mode for is named in a notice and read as default", async () => {
    const box = sandbox("scripted/call");
    userSettings(box, { defaultMode: "dontAsk" });
    const c = await connectProcess(box.env);
    try {
      const created = await c.ctx.request(acp.methods.agent.session.new, { cwd: box.workspace, mcpServers: [] });
      expect(created.modes?.currentModeId).toBe("default");
      expect(shown(c, created.sessionId)).toContain('defaultMode \\"dontAsk\\" is not a verbatim mode');
    } finally {
      await c.close();
    }
  });
});
