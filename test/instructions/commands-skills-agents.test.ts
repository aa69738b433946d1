/**
 * The commands, skills and subagents a user keeps, used through the agent: commands in two
 * namespaces with their arguments (0-based), a personal skill the model loads with the Skill tool
 * (one it may not load refused; a project skill not offered in a workspace not trusted), a custom
 * agent that runs with only its two tools; clashes and bad front matter told once each.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { connectProcess, newSession, prompt, until } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { anthropicKit, modelRef } from "../support/provider-kits.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

function plantSetup(box: Sandbox) {
  const w = box.workspace;
  const user = join(box.userHome, ".claude");
  put(join(user, "commands", "hello.md"), "Say hello to $0 and $1.\n");
  put(
    join(w, ".claude", "commands", "frontend", "build.md"),
    "---\ndescription: Build a target\nargument-hint: <target> <mode>\nallowed-tools: Bash(npm run build:*)\n---\nBuild $ARGUMENTS[0] in $ARGUMENTS[1] mode. All: $ARGUMENTS\n",
  );
  put(join(w, ".verbatim", "commands", "ops", "deploy.md"), "Deploy to the staging cluster.\n");
  put(join(w, ".claude", "commands", "bad.md"), "---\ndescription: [unclosed\n---\nBad.\n");
  put(
    join(user, "skills", "pdf", "SKILL.md"),
    "---\nname: pdf\ndescription: Fill and read PDF forms\n---\nUse ${CLAUDE_SKILL_DIR}/tool.py for $ARGUMENTS\n",
  );
  put(
    join(user, "skills", "secret", "SKILL.md"),
    "---\ndescription: Rotate the keys\ndisable-model-invocation: true\n---\nRotate them.\n",
  );
  put(
    join(w, ".claude", "skills", "proj", "SKILL.md"),
    "---\ndescription: A project skill\n---\nProject skill body.\n",
  );
  put(
    join(w, ".claude", "agents", "reviewer.md"),
    "---\nname: reviewer\ndescription: Reviews a change for bugs\ntools: Read, Grep\n---\nYou review code. Report the bugs you find.\n",
  );
  put(
    join(user, "agents", "reviewer.md"),
    "---\nname: reviewer\ndescription: The user's reviewer\n---\nUser reviewer.\n",
  );
}

type Body = { system?: { text: string }[]; tools?: { name: string }[]; messages: unknown[] };
const systemOf = (body: unknown) => ((body as Body).system ?? []).map((s) => s.text).join("");
const lastUserText = (body: unknown) => JSON.stringify((body as Body).messages.at(-1));

async function started(box: Sandbox) {
  const server = fixtureServer();
  Object.assign(box.env, anthropicKit.env(server));
  const c = await connectProcess(box.env);
  const { sessionId } = await newSession(c.ctx, box.workspace);
  await until(() => (c.client.view(sessionId).commands?.length ?? 0) > 2, "the commands");
  return { server, c, sessionId };
}

describe("slash commands a user keeps", () => {
  test("personal and namespaced project commands are offered with their hints, and their arguments are put in 0-based", async () => {
    const box = sandbox(modelRef(anthropicKit));
    plantSetup(box);
    const { server, c, sessionId } = await started(box);
    try {
      const commands = c.client.view(sessionId).commands ?? [];
      expect(commands.map((cmd) => cmd.name)).toEqual([
        "compact",
        "context",
        "pdf",
        "secret",
        "hello",
        "ops:deploy",
        "frontend:build",
      ]);
      expect(commands.find((cmd) => cmd.name === "frontend:build")).toEqual({
        name: "frontend:build",
        description: "Build a target",
        input: { hint: "<target> <mode>" },
      });
      server.enqueue({ sse: anthropicKit.text("Built.") }, { sse: anthropicKit.text("Hi.") });
      await prompt(c.ctx, sessionId, "/frontend:build web prod");
      expect(lastUserText(server.requests[0]!.body)).toContain('"text":"Build web in prod mode. All: web prod\\n"');
      await prompt(c.ctx, sessionId, '/hello Ada "Bo Li"');
      expect(lastUserText(server.requests[1]!.body)).toContain('"text":"Say hello to Ada and Bo Li.\\n"');
      const shown = JSON.stringify(c.client.view(sessionId));
      expect(shown).toContain(
        `${join(box.workspace, ".claude", "commands", "bad.md")} was not read: its front matter is not valid YAML`,
      );
      expect(shown).toContain(`The project's skills in ${join(box.workspace, ".claude", "skills")} are not offered`);
    } finally {
      await c.close();
    }
  });
});

describe("a command's !`cmd` inlines", () => {
  const plantInlines = (box: Sandbox) => {
    put(
      join(box.workspace, ".claude", "commands", "status.md"),
      "---\nallowed-tools: Bash(echo:*)\n---\nStatus: !`echo inline-ran`\nNot allowed: !`pwd`\n",
    );
  };

  test("do not run in a workspace not trusted: the text stays as written", async () => {
    const box = sandbox(modelRef(anthropicKit));
    plantInlines(box);
    const { server, c, sessionId } = await started(box);
    try {
      server.enqueue({ sse: anthropicKit.text("Ok.") });
      await prompt(c.ctx, sessionId, "/status");
      expect(lastUserText(server.requests[0]!.body)).toContain(
        '"text":"Status: !`echo inline-ran`\\nNot allowed: !`pwd`\\n"',
      );
    } finally {
      await c.close();
    }
  });

  test("run in a trusted workspace when the command's allowed-tools let Bash run them, and their output is what the model reads", async () => {
    const box = sandbox(modelRef(anthropicKit));
    plantInlines(box);
    expect((await runCli(["trust", box.workspace], box.env)).code).toBe(0);
    const { server, c, sessionId } = await started(box);
    try {
      server.enqueue({ sse: anthropicKit.text("Ok.") });
      await prompt(c.ctx, sessionId, "/status");
      expect(lastUserText(server.requests[0]!.body)).toContain('"text":"Status: inline-ran\\nNot allowed: !`pwd`\\n"');
    } finally {
      await c.close();
    }
  });
});

describe("skills", () => {
  test("the model is told of the skills it may load, loads one with the Skill tool, and is refused one kept for the user", async () => {
    const box = sandbox(modelRef(anthropicKit));
    plantSetup(box);
    const { server, c, sessionId } = await started(box);
    const dir = join(box.userHome, ".claude", "skills", "pdf");
    try {
      server.enqueue(
        { sse: anthropicKit.calls([{ id: "call_pdf", name: "Skill", input: { skill: "pdf", args: "form.pdf" } }]) },
        { sse: anthropicKit.calls([{ id: "call_secret", name: "Skill", input: { skill: "secret" } }]) },
        { sse: anthropicKit.text("Done.") },
      );
      await prompt(c.ctx, sessionId, "Fill the form");
      const first = server.requests[0]!.body;
      expect(systemOf(first)).toContain(
        "Skills you can load with the Skill tool (load one when the task matches what it is for):\n- pdf: Fill and read PDF forms",
      );
      expect(systemOf(first)).not.toContain("secret");
      expect(systemOf(first)).not.toContain("A project skill");
      expect((first as Body).tools?.map((t) => t.name)).toContain("Skill");
      expect(JSON.stringify((server.requests[1]!.body as Body).messages.at(-1))).toContain(
        JSON.stringify(`Base directory for this skill: ${dir}\n\nUse ${dir}/tool.py for form.pdf\n`).slice(1, -1),
      );
      expect(JSON.stringify((server.requests[2]!.body as Body).messages.at(-1))).toContain(
        "is for the user to run (/secret); it cannot be loaded by the model",
      );
    } finally {
      await c.close();
    }
  });

  test("a session with no skills is not offered the Skill tool", async () => {
    const box = sandbox(modelRef(anthropicKit));
    const server = fixtureServer();
    Object.assign(box.env, anthropicKit.env(server));
    const c = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      server.enqueue({ sse: anthropicKit.text("Hi.") });
      await prompt(c.ctx, sessionId, "Hi");
      expect((server.requests[0]!.body as Body).tools?.map((t) => t.name)).not.toContain("Skill");
    } finally {
      await c.close();
    }
  });
});

describe("custom subagents", () => {
  test("a project agent is offered to Task and runs with only its listed tools and its own prompt; the user's same-named one is told passed over", async () => {
    const box = sandbox(modelRef(anthropicKit));
    plantSetup(box);
    const { server, c, sessionId } = await started(box);
    try {
      server.enqueue(
        {
          sse: anthropicKit.calls([
            {
              id: "call_task",
              name: "Task",
              input: { description: "Review", prompt: "Review src/", subagent_type: "reviewer" },
            },
          ]),
        },
        { sse: anthropicKit.text("No bugs found.") },
        { sse: anthropicKit.text("The reviewer found no bugs.") },
      );
      await prompt(c.ctx, sessionId, "Review my change");
      expect(systemOf(server.requests[0]!.body)).toContain(
        "Custom subagent types the user keeps, for the Task tool's subagent_type:\n- reviewer: Reviews a change for bugs",
      );
      const child = server.requests[1]!.body as Body;
      expect(child.tools?.map((t) => t.name)).toEqual(["Read", "Grep"]);
      expect(systemOf(child).endsWith("You review code. Report the bugs you find.")).toBe(true);
      expect(JSON.stringify(server.requests[2]!.body)).toContain("No bugs found.");
      const shown = JSON.stringify(c.client.view(sessionId));
      expect(shown).toContain(
        `Two definitions of the subagent reviewer: ${join(box.userHome, ".claude", "agents", "reviewer.md")} is not used`,
      );
      const told = Object.values(c.client.view(sessionId).messages).filter((m) =>
        JSON.stringify(m.content).includes("Two definitions of the subagent reviewer"),
      );
      expect(told.length).toBe(1);
    } finally {
      await c.close();
    }
  });
});

describe("doctor", () => {
  test("names the files it would skip and the names that clash", async () => {
    const box = sandbox("scripted/demo");
    plantSetup(box);
    const result = await runCli(["doctor", "--cwd", box.workspace], box.env);
    expect(result.stdout).toContain(
      `warn  setup file: ${join(box.workspace, ".claude", "commands", "bad.md")} is skipped: its front matter is not valid YAML`,
    );
    expect(result.stdout).toContain(
      `warn  setup name: two definitions of the subagent reviewer: ${join(box.userHome, ".claude", "agents", "reviewer.md")} is not used`,
    );
    expect(result.stdout).toContain("ok    setup: 0 instruction files, 2 skills, 3 commands, 1 custom agent");
  });
});
