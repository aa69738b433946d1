/**
 * What a command's or skill's front matter does while it acts, through the agent: named
 * arguments are put in; `allowed-tools` lets calls run unasked for the rest of that turn only (a
 * project command's only in a trusted workspace), `disallowed-tools` refuses them; `model` and
 * `effort` are what the turn's requests use, and a custom subagent runs on its `model`;
 * `context: fork` runs a skill in a subagent of its `agent` type. Each is recorded
 * (`command_activated`), and a reload shows the same.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { cards } from "../parity/harness.ts";
import { connectProcess, load, newSession, prompt, until, type Connected } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { anthropicKit, modelRef } from "../support/provider-kits.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

type Body = { model?: string; system?: { text: string }[]; output_config?: unknown; messages: unknown[] };
const bodyOf = (server: ReturnType<typeof fixtureServer>, i: number) => server.requests[i]!.body as Body;
const systemOf = (body: Body) => (body.system ?? []).map((s) => s.text).join("");
const lastMessage = (body: Body) => JSON.stringify(body.messages.at(-1));
const cardText = (card: unknown) => JSON.stringify((card as { content?: unknown } | undefined)?.content ?? null);
/** The notices a command's acting shows, as the view holds them. */
const actingNotices = (c: Connected, sessionId: string) =>
  Object.values(c.client.view(sessionId).messages)
    .map((m) => JSON.stringify(m.content))
    .filter((text) => text.includes("acts for the rest of this turn"));

/** A session on the planted setup; `commands`: wait for the user's commands to be offered (when there are any). */
async function started(box: Sandbox, policy: Parameters<typeof choose>[0] = "allow_once", commands = true) {
  const server = fixtureServer();
  Object.assign(box.env, anthropicKit.env(server));
  const c = await connectProcess(box.env, { policy: choose(policy) });
  const { sessionId } = await newSession(c.ctx, box.workspace);
  if (commands) await until(() => (c.client.view(sessionId).commands?.length ?? 0) > 2, "the commands");
  return { server, c, sessionId };
}

const echoCall = (id: string, text: string) =>
  anthropicKit.calls([{ id, name: "Bash", input: { command: `echo ${text}`, description: "Echo" } }]);

describe("named arguments", () => {
  test("a skill's `arguments` names its positions: `$file` and `$mode` are the first and second words", async () => {
    const box = sandbox(modelRef(anthropicKit));
    put(
      join(box.userHome, ".claude", "skills", "convert", "SKILL.md"),
      "---\ndescription: Convert a file\narguments: [file, mode]\n---\nConvert $file in $mode mode ($filename stays; $0 too).\n",
    );
    const { server, c, sessionId } = await started(box);
    try {
      server.enqueue({ sse: anthropicKit.text("Converted.") });
      await prompt(c.ctx, sessionId, '/convert "my file.txt" fast');
      expect(lastMessage(bodyOf(server, 0))).toContain(
        '"text":"Convert my file.txt in fast mode ($filename stays; my file.txt too).\\n"',
      );
    } finally {
      await c.close();
    }
  });
});

describe("allowed-tools while a command acts", () => {
  test("a personal command's allowed-tools lets its turn's matching calls run unasked, named on the card; the next turn asks again", async () => {
    const box = sandbox(modelRef(anthropicKit));
    const file = join(box.userHome, ".claude", "commands", "shout.md");
    put(file, "---\nallowed-tools: Bash(echo:*)\n---\nEcho the word loud.\n");
    const { server, c, sessionId } = await started(box, "reject_once");
    try {
      server.enqueue(
        { sse: echoCall("call_1", "loud") },
        { sse: anthropicKit.text("Echoed.") },
        { sse: echoCall("call_2", "again") },
        { sse: anthropicKit.text("Refused.") },
      );
      await prompt(c.ctx, sessionId, "/shout");
      expect(c.client.permissionRequests.length).toBe(0);
      const first = cards(c.client.view(sessionId)).at(-1);
      expect(first?.status).toBe("completed");
      expect(cardText(first)).toContain(`Allowed by rule Bash(echo:*) (command: ${file})`);
      expect(actingNotices(c, sessionId)).toEqual([expect.stringContaining("allows Bash(echo:*) without asking")]);
      await prompt(c.ctx, sessionId, "Echo again");
      expect(c.client.permissionRequests.length).toBe(1);
      expect(cards(c.client.view(sessionId)).at(-1)?.status).toBe("failed");
    } finally {
      await c.close();
    }
  });

  test("a project command's allowed-tools act only in a trusted workspace: otherwise the call asks and the notice says why", async () => {
    const box = sandbox(modelRef(anthropicKit));
    put(join(box.workspace, ".claude", "commands", "shout.md"), "---\nallowed-tools: Bash(echo:*)\n---\nEcho.\n");
    const { server, c, sessionId } = await started(box, "allow_once");
    try {
      server.enqueue({ sse: echoCall("call_1", "loud") }, { sse: anthropicKit.text("Echoed.") });
      await prompt(c.ctx, sessionId, "/shout");
      expect(c.client.permissionRequests.length).toBe(1);
      expect(actingNotices(c, sessionId)).toEqual([
        expect.stringContaining("its allowed-tools (Bash(echo:*)) act only in a trusted workspace"),
      ]);
    } finally {
      await c.close();
    }
  });

  test("a reload decides and shows the same: the card's rule and the notice come back from the journal", async () => {
    const box = sandbox(modelRef(anthropicKit));
    const file = join(box.userHome, ".claude", "commands", "shout.md");
    put(file, "---\nallowed-tools: Bash(echo:*)\nmodel: haiku\n---\nEcho the word loud.\n");
    const { server, c, sessionId } = await started(box, "reject_once");
    let live: string[] = [];
    try {
      server.enqueue({ sse: echoCall("call_1", "loud") }, { sse: anthropicKit.text("Echoed.") });
      await prompt(c.ctx, sessionId, "/shout");
      live = actingNotices(c, sessionId);
    } finally {
      await c.close();
    }
    const fresh = await connectProcess(box.env);
    try {
      await load(fresh.ctx, sessionId, box.workspace);
      expect(actingNotices(fresh, sessionId)).toEqual(live);
      expect(live[0]).toContain("uses the model anthropic/claude-haiku-4-5");
      expect(cardText(cards(fresh.client.view(sessionId)).at(-1))).toContain(
        `Allowed by rule Bash(echo:*) (command: ${file})`,
      );
    } finally {
      await fresh.close();
    }
  });
});

describe("disallowed-tools while a skill acts", () => {
  test("a skill the model loads refuses its disallowed tools for the rest of the turn, naming its file", async () => {
    const box = sandbox(modelRef(anthropicKit));
    const file = join(box.userHome, ".claude", "skills", "careful", "SKILL.md");
    put(file, "---\ndescription: Work carefully\ndisallowed-tools: Bash\n---\nDo not run commands.\n");
    const { server, c, sessionId } = await started(box, "allow_once");
    try {
      server.enqueue(
        { sse: anthropicKit.calls([{ id: "call_skill", name: "Skill", input: { skill: "careful" } }]) },
        { sse: echoCall("call_1", "hi") },
        { sse: anthropicKit.text("I may not.") },
      );
      await prompt(c.ctx, sessionId, "Be careful");
      expect(c.client.permissionRequests.length).toBe(0);
      expect(lastMessage(bodyOf(server, 2))).toContain(`Bash was refused by the user's permission rule Bash (${file})`);
      expect(cardText(cards(c.client.view(sessionId)).at(-1))).toContain(`Refused by rule Bash (command: ${file})`);
    } finally {
      await c.close();
    }
  });
});

describe("model and effort", () => {
  test("a command's model and effort are what its turn's requests use; the next turn is back on the session's", async () => {
    const box = sandbox(modelRef(anthropicKit));
    put(join(box.userHome, ".claude", "commands", "quick.md"), "---\nmodel: haiku\n---\nQuick answer.\n");
    put(join(box.userHome, ".claude", "commands", "think.md"), "---\neffort: low\n---\nThink a little.\n");
    const { server, c, sessionId } = await started(box);
    try {
      server.enqueue(
        { sse: anthropicKit.text("Quick.") },
        { sse: anthropicKit.text("Thought.") },
        { sse: anthropicKit.text("Normal.") },
      );
      await prompt(c.ctx, sessionId, "/quick");
      await prompt(c.ctx, sessionId, "/think");
      await prompt(c.ctx, sessionId, "Hello");
      expect(bodyOf(server, 0).model).toBe("claude-haiku-4-5");
      expect(bodyOf(server, 1).model).toBe("claude-sonnet-4-6");
      expect(bodyOf(server, 1).output_config).toEqual({ effort: "low" });
      expect(bodyOf(server, 2).model).toBe("claude-sonnet-4-6");
      expect(bodyOf(server, 2).output_config).not.toEqual({ effort: "low" });
    } finally {
      await c.close();
    }
  });

  test("a skill the model loads moves the turn's next requests to its model", async () => {
    const box = sandbox(modelRef(anthropicKit));
    put(
      join(box.userHome, ".claude", "skills", "quick", "SKILL.md"),
      "---\ndescription: Quick\nmodel: haiku\n---\nBe quick.\n",
    );
    const { server, c, sessionId } = await started(box);
    try {
      server.enqueue(
        { sse: anthropicKit.calls([{ id: "call_skill", name: "Skill", input: { skill: "quick" } }]) },
        { sse: anthropicKit.text("Quick.") },
        { sse: anthropicKit.text("Normal.") },
      );
      await prompt(c.ctx, sessionId, "Be quick");
      await prompt(c.ctx, sessionId, "Hello");
      expect([0, 1, 2].map((i) => bodyOf(server, i).model)).toEqual([
        "claude-sonnet-4-6",
        "claude-haiku-4-5",
        "claude-sonnet-4-6",
      ]);
    } finally {
      await c.close();
    }
  });

  test("a custom subagent runs on the model its file names", async () => {
    const box = sandbox(modelRef(anthropicKit));
    put(
      join(box.userHome, ".claude", "agents", "fast.md"),
      "---\nname: fast\ndescription: Answers fast\nmodel: haiku\ntools: Read\n---\nAnswer fast.\n",
    );
    const { server, c, sessionId } = await started(box, "allow_once", false);
    try {
      server.enqueue(
        {
          sse: anthropicKit.calls([
            { id: "call_task", name: "Task", input: { description: "Ask", prompt: "Say hi", subagent_type: "fast" } },
          ]),
        },
        { sse: anthropicKit.text("Hi.") },
        { sse: anthropicKit.text("It said hi.") },
      );
      await prompt(c.ctx, sessionId, "Delegate");
      expect(bodyOf(server, 0).model).toBe("claude-sonnet-4-6");
      expect(bodyOf(server, 1).model).toBe("claude-haiku-4-5");
      expect(bodyOf(server, 2).model).toBe("claude-sonnet-4-6");
    } finally {
      await c.close();
    }
  });
});

describe("context: fork", () => {
  test("a forked skill runs in a subagent of its agent type, with its text as the task, and on its model; the report is the result", async () => {
    const box = sandbox(modelRef(anthropicKit));
    const dir = join(box.userHome, ".claude", "skills", "audit");
    put(
      join(dir, "SKILL.md"),
      "---\ndescription: Audit the code\ncontext: fork\nagent: reviewer\nmodel: haiku\n---\nAudit $ARGUMENTS for bugs.\n",
    );
    put(
      join(box.userHome, ".claude", "agents", "reviewer.md"),
      "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\nYou review code.\n",
    );
    const { server, c, sessionId } = await started(box);
    try {
      server.enqueue(
        { sse: anthropicKit.calls([{ id: "call_skill", name: "Skill", input: { skill: "audit", args: "src/" } }]) },
        { sse: anthropicKit.text("Two bugs in src/.") },
        { sse: anthropicKit.text("The audit found two bugs.") },
      );
      await prompt(c.ctx, sessionId, "Audit src/");
      const child = bodyOf(server, 1);
      expect(systemOf(child).endsWith("You review code.")).toBe(true);
      expect(child.model).toBe("claude-haiku-4-5");
      expect(lastMessage(child)).toContain(
        JSON.stringify(`Base directory for this skill: ${dir}\n\nAudit src/ for bugs.\n`).slice(1, -1),
      );
      expect(lastMessage(bodyOf(server, 2))).toContain("Two bugs in src/.");
    } finally {
      await c.close();
    }
  });
});

describe("skills in parent folders", () => {
  test("a trusted session reads the project skills of each parent up to the git root, the closest winning, none above it", async () => {
    const box = sandbox(modelRef(anthropicKit));
    const app = join(box.workspace, "app");
    mkdirSync(join(box.workspace, ".git"), { recursive: true });
    put(join(box.root, ".claude", "skills", "above", "SKILL.md"), "---\ndescription: Above the repository\n---\nNo.\n");
    put(
      join(box.workspace, ".claude", "skills", "repo", "SKILL.md"),
      "---\ndescription: The repository's skill\n---\nR.\n",
    );
    put(join(box.workspace, ".claude", "skills", "both", "SKILL.md"), "---\ndescription: The parent's both\n---\nP.\n");
    put(join(app, ".claude", "skills", "both", "SKILL.md"), "---\ndescription: The app's both\n---\nA.\n");
    expect((await runCli(["trust", app], box.env)).code).toBe(0);
    const server = fixtureServer();
    Object.assign(box.env, anthropicKit.env(server));
    const c = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, app);
      server.enqueue({ sse: anthropicKit.text("Hi.") });
      await prompt(c.ctx, sessionId, "Hi");
      expect(systemOf(bodyOf(server, 0))).toContain(
        "Skills you can load with the Skill tool (load one when the task matches what it is for):\n- both: The app's both\n- repo: The repository's skill",
      );
      expect(systemOf(bodyOf(server, 0))).not.toContain("Above the repository");
      expect(JSON.stringify(c.client.view(sessionId))).toContain(
        `${join(box.workspace, ".claude", "skills", "both", "SKILL.md")} is not used`,
      );
    } finally {
      await c.close();
    }
  });
});

describe("claudeMdExcludes", () => {
  test("an instruction file a settings pattern matches is not given; the context notice, a reload and show --context name it", async () => {
    const box = sandbox(modelRef(anthropicKit));
    const w = box.workspace;
    put(join(w, "CLAUDE.md"), "Project rule: kept.\n");
    put(join(w, "CLAUDE.local.md"), "Local rule: excluded.\n");
    put(join(w, "sub", "CLAUDE.md"), "Sub rule: excluded too.\n");
    put(join(w, "sub", "file.txt"), "sub file\n");
    put(join(w, ".claude", "settings.json"), JSON.stringify({ claudeMdExcludes: ["**/CLAUDE.local.md", "**/sub/**"] }));
    const { server, c, sessionId } = await started(box, "allow_once", false);
    let live: string[] = [];
    try {
      server.enqueue(
        {
          sse: anthropicKit.calls([{ id: "call_sub", name: "Read", input: { file_path: join(w, "sub", "file.txt") } }]),
        },
        { sse: anthropicKit.text("Done.") },
      );
      await prompt(c.ctx, sessionId, "Look");
      const all = JSON.stringify(server.requests.map((r) => r.body));
      expect(all).toContain("Project rule: kept.");
      expect(all).not.toContain("Local rule");
      expect(all).not.toContain("Sub rule");
      live = Object.values(c.client.view(sessionId).messages)
        .map((m) => JSON.stringify(m.content))
        .filter((t) => t.includes("excluded"));
      expect(live).toEqual([
        expect.stringContaining(`excluded ${join(w, "CLAUDE.local.md")} (claudeMdExcludes: **/CLAUDE.local.md)`),
      ]);
    } finally {
      await c.close();
    }
    const fresh = await connectProcess(box.env);
    try {
      await load(fresh.ctx, sessionId, w);
      const again = Object.values(fresh.client.view(sessionId).messages)
        .map((m) => JSON.stringify(m.content))
        .filter((t) => t.includes("excluded"));
      expect(again).toEqual(live);
    } finally {
      await fresh.close();
    }
    const shown = await runCli(["show", sessionId, "--context"], box.env);
    expect(shown.stdout).toContain(`  excluded ${join(w, "CLAUDE.local.md")} (claudeMdExcludes: **/CLAUDE.local.md)`);
  });
});

describe("a skill's paths", () => {
  test("a skill with paths is offered to the model only once it reads a file they match, once", async () => {
    const box = sandbox(modelRef(anthropicKit));
    const w = box.workspace;
    const file = join(box.userHome, ".claude", "skills", "api", "SKILL.md");
    put(file, '---\ndescription: Conventions of the API routes\npaths: ["src/api/**"]\n---\nValidate inputs.\n');
    put(join(w, "src", "api", "route.ts"), "export {};\n");
    put(join(w, "src", "other.ts"), "export {};\n");
    const { server, c, sessionId } = await started(box);
    try {
      server.enqueue(
        { sse: anthropicKit.calls([{ id: "call_early", name: "Skill", input: { skill: "api" } }]) },
        {
          sse: anthropicKit.calls([
            { id: "call_other", name: "Read", input: { file_path: join(w, "src", "other.ts") } },
          ]),
        },
        {
          sse: anthropicKit.calls([
            { id: "call_api", name: "Read", input: { file_path: join(w, "src", "api", "route.ts") } },
          ]),
        },
        { sse: anthropicKit.calls([{ id: "call_load", name: "Skill", input: { skill: "api" } }]) },
        { sse: anthropicKit.text("Done.") },
      );
      await prompt(c.ctx, sessionId, "Work on the API");
      expect(systemOf(bodyOf(server, 0))).not.toContain("Conventions of the API routes");
      expect(lastMessage(bodyOf(server, 1))).toContain('There is no skill \\"api\\"');
      expect(JSON.stringify(bodyOf(server, 2))).not.toContain("Conventions of the API routes");
      const offered = `Contents of ${file} (a skill for the files just read, now yours to load with the Skill tool):\n\n- api: Conventions of the API routes`;
      expect(lastMessage(bodyOf(server, 3))).toContain(JSON.stringify(offered).slice(1, -1));
      expect(lastMessage(bodyOf(server, 4))).toContain("Validate inputs.");
      expect(JSON.stringify(bodyOf(server, 4)).split("Conventions of the API routes").length).toBe(2);
    } finally {
      await c.close();
    }
  });
});

describe("a skill's hooks", () => {
  const guard = [
    "---",
    "description: Guard the repository",
    "hooks:",
    "  PreToolUse:",
    "    - matcher: Bash",
    "      hooks:",
    "        - type: command",
    "          command: \"echo 'no commands while guarded' >&2; exit 2\"",
    "---",
    "Guarded.",
    "",
  ].join("\n");

  test("a personal skill's hooks run once it is invoked, for the rest of the session", async () => {
    const box = sandbox(modelRef(anthropicKit));
    put(join(box.userHome, ".claude", "skills", "guard", "SKILL.md"), guard);
    const { server, c, sessionId } = await started(box);
    try {
      server.enqueue(
        { sse: echoCall("call_0", "before") },
        { sse: anthropicKit.text("Ran.") },
        { sse: anthropicKit.calls([{ id: "call_skill", name: "Skill", input: { skill: "guard" } }]) },
        { sse: echoCall("call_1", "during") },
        { sse: anthropicKit.text("Blocked.") },
        { sse: echoCall("call_2", "after") },
        { sse: anthropicKit.text("Still blocked.") },
      );
      await prompt(c.ctx, sessionId, "Echo before");
      expect(lastMessage(bodyOf(server, 1))).toContain("before");
      await prompt(c.ctx, sessionId, "Guard, then echo");
      expect(lastMessage(bodyOf(server, 4))).toContain(
        'Bash was blocked by a hook and did not run. The hook\'s reason:\\n<hook_context source=\\"PreToolUse hooks\\">\\nno commands while guarded',
      );
      await prompt(c.ctx, sessionId, "Echo after");
      expect(lastMessage(bodyOf(server, 6))).toContain("no commands while guarded");
    } finally {
      await c.close();
    }
  });
});

describe("a forked skill the user types", () => {
  test("the model is asked to run it with the Skill tool, which forks it", async () => {
    const box = sandbox(modelRef(anthropicKit));
    put(
      join(box.userHome, ".claude", "skills", "audit", "SKILL.md"),
      "---\ndescription: Audit the code\ncontext: fork\n---\nAudit $ARGUMENTS for bugs.\n",
    );
    const { server, c, sessionId } = await started(box);
    try {
      server.enqueue(
        { sse: anthropicKit.calls([{ id: "call_skill", name: "Skill", input: { skill: "audit", args: "src/" } }]) },
        { sse: anthropicKit.text("One bug.") },
        { sse: anthropicKit.text("The audit found one bug.") },
      );
      await prompt(c.ctx, sessionId, "/audit src/");
      expect(lastMessage(bodyOf(server, 0))).toContain(
        JSON.stringify(
          'The user ran /audit, a skill that runs in a subagent of its own. Call the Skill tool now with {"skill":"audit","args":"src/"}, then tell the user what it reported.',
        ).slice(1, -1),
      );
      expect(lastMessage(bodyOf(server, 1))).toContain("Audit src/ for bugs.");
      expect(lastMessage(bodyOf(server, 2))).toContain("One bug.");
    } finally {
      await c.close();
    }
  });
});
