/**
 * A repository kept the way Claude Code and Codex users keep it, opened in verbatim: the whole
 * instruction hierarchy reaches the model's system prompt in order, each file once; a file that
 * leads outside, an import cycle, a huge file and bad front matter are named in notices; a
 * subfolder's CLAUDE.md and a rule whose `paths:` match reach the model with the result of the
 * call that read there; what the model was given is recorded and a reload shows the same.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { connectProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { anthropicKit, modelRef } from "../support/provider-kits.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const PROJECT_CLAUDE =
  "Project rule: run the tests.\n<!-- a note for humans -->\nSee @AGENTS.md and @docs/a.md and @linked.md.\nIn code, `@notanimport` stays.\n";

const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

/** The fixture repository: every tier of the hierarchy, with the files that must not be read. */
function plantRepository(box: Sandbox) {
  const w = box.workspace;
  put(join(box.root, "CLAUDE.md"), "Parent rule: the monorepo uses tabs.\n");
  put(join(box.userHome, ".claude", "CLAUDE.md"), "User rule: answer in English.\n");
  put(join(w, "CLAUDE.md"), PROJECT_CLAUDE);
  put(join(w, "AGENTS.md"), "Agents rule: small commits.\n");
  put(join(w, "CLAUDE.local.md"), "Local rule: my sandbox is at /tmp/x.\n");
  put(join(w, ".claude", "CLAUDE.md"), "Dot-claude rule: prefer Bun.\n");
  put(join(w, "docs", "a.md"), "Doc A imports @b.md\n");
  put(join(w, "docs", "b.md"), "Doc B imports @a.md back\n");
  put(join(box.root, "private", "secret.md"), "SECRET OUTSIDE\n");
  symlinkSync(join(box.root, "private", "secret.md"), join(w, "linked.md"));
  put(join(w, ".claude", "rules", "style.md"), "Style rule: no semicolons.\n");
  put(join(w, ".claude", "rules", "api.md"), '---\npaths: ["src/api/**"]\n---\nAPI rule: validate inputs.\n');
  put(join(w, ".claude", "rules", "bad.md"), "---\npaths: [unclosed\n---\nBad rule.\n");
  put(join(w, ".claude", "rules", "zhuge.md"), `${"x".repeat(50_000)}\n`);
  put(join(w, "sub", "CLAUDE.md"), "Sub rule: this folder is generated.\n");
  put(join(w, "sub", "file.txt"), "sub file\n");
  put(join(w, "src", "api", "route.ts"), "export {};\n");
}

const section = (path: string, label: string, text: string) => `Contents of ${path} (${label}):\n\n${text}`;

describe("a project's instruction files", () => {
  test("reach the system prompt in order, each once; what leads outside, cycles, huge files and bad front matter are named", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(anthropicKit));
    Object.assign(box.env, anthropicKit.env(server));
    plantRepository(box);
    const w = box.workspace;
    const c = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, w);
      server.enqueue(
        {
          sse: anthropicKit.calls([{ id: "call_sub", name: "Read", input: { file_path: join(w, "sub", "file.txt") } }]),
        },
        {
          sse: anthropicKit.calls([
            { id: "call_api", name: "Read", input: { file_path: join(w, "src", "api", "route.ts") } },
          ]),
        },
        { sse: anthropicKit.text("Done.") },
      );
      await prompt(c.ctx, sessionId, "Look around");
      const first = server.requests[0]!.body as { system: unknown };
      const system = JSON.stringify(first.system);
      const expected = [
        "The user's instructions follow. They override default behaviour; follow them exactly as written.",
        section(
          join(box.userHome, ".claude", "CLAUDE.md"),
          "the user's private global instructions for all projects",
          "User rule: answer in English.",
        ),
        section(
          join(box.root, "CLAUDE.md"),
          "project instructions, checked into the codebase",
          "Parent rule: the monorepo uses tabs.",
        ),
        section(
          join(w, "CLAUDE.md"),
          "project instructions, checked into the codebase",
          "Project rule: run the tests.\n\nSee @AGENTS.md and @docs/a.md and @linked.md.\nIn code, `@notanimport` stays.",
        ),
        section(join(w, "AGENTS.md"), "imported by the file before it", "Agents rule: small commits."),
        section(join(w, "docs", "a.md"), "imported by the file before it", "Doc A imports @b.md"),
        section(join(w, "docs", "b.md"), "imported by the file before it", "Doc B imports @a.md back"),
        section(
          join(w, ".claude", "CLAUDE.md"),
          "project instructions, checked into the codebase",
          "Dot-claude rule: prefer Bun.",
        ),
        section(
          join(w, "CLAUDE.local.md"),
          "the user's private project instructions, not checked in",
          "Local rule: my sandbox is at /tmp/x.",
        ),
        section(join(w, ".claude", "rules", "style.md"), "instruction rules", "Style rule: no semicolons."),
        section(join(w, ".claude", "rules", "zhuge.md"), "instruction rules", "x".repeat(40_000)),
      ].join("\n\n");
      expect(system.includes(JSON.stringify(expected).slice(1, -1))).toBe(true);
      expect(system.includes("x".repeat(40_001))).toBe(false);
      expect(system.includes("SECRET OUTSIDE")).toBe(false);
      expect(system.includes("API rule")).toBe(false);
      expect(system.includes("a note for humans")).toBe(false);
      expect(system.split("Agents rule").length).toBe(2);

      const shown = JSON.stringify(c.client.view(sessionId));
      expect(shown).toContain(
        `${join(w, "linked.md")} was not read: it leads to ${join(box.root, "private", "secret.md")}`,
      );
      expect(shown).toContain(`${join(w, "docs", "a.md")} was not read: it imports itself`);
      expect(shown).toContain(
        `${join(w, ".claude", "rules", "bad.md")} was not read: its front matter is not valid YAML`,
      );
      expect(shown).toContain(`${join(w, ".claude", "rules", "zhuge.md")}: its first 40000 characters`);

      // The subfolder's CLAUDE.md goes with the result of the Read that went there, once.
      const second = JSON.stringify(server.requests[1]!.body);
      expect(second).toContain(
        JSON.stringify(
          section(
            join(w, "sub", "CLAUDE.md"),
            "instructions for the files in this directory",
            "Sub rule: this folder is generated.",
          ),
        ).slice(1, -1),
      );
      const third = JSON.stringify(server.requests[2]!.body);
      expect(third).toContain("API rule: validate inputs.");
      expect(third.split("Sub rule").length).toBe(2);
    } finally {
      await c.close();
    }
  });

  test("a reload shows the same context notices, and the next request sends the same context", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(anthropicKit));
    Object.assign(box.env, anthropicKit.env(server));
    plantRepository(box);
    const w = box.workspace;
    const live = await connectProcess(box.env);
    let sessionId = "";
    let liveShown: unknown[] = [];
    try {
      sessionId = (await newSession(live.ctx, w)).sessionId;
      server.enqueue(
        {
          sse: anthropicKit.calls([{ id: "call_sub", name: "Read", input: { file_path: join(w, "sub", "file.txt") } }]),
        },
        { sse: anthropicKit.text("Done.") },
      );
      await prompt(live.ctx, sessionId, "Look in sub");
      liveShown = contextEntries(live.client.view(sessionId));
      expect(liveShown.length).toBe(2);
    } finally {
      await live.close();
    }
    // The files change after the session started: the reload still shows what the model was given.
    put(join(w, "CLAUDE.md"), "Project rule: EDITED AFTER START.\n");
    put(join(w, "sub", "CLAUDE.md"), "Sub rule: EDITED AFTER START.\n");
    const fresh = await connectProcess(box.env);
    try {
      await load(fresh.ctx, sessionId, w);
      expect(contextEntries(fresh.client.view(sessionId))).toEqual(liveShown);
      server.enqueue({ sse: anthropicKit.text("Again.") });
      await prompt(fresh.ctx, sessionId, "And now?");
      const last = JSON.stringify(server.requests.at(-1)!.body);
      const changed = last.indexOf("EDITED AFTER START");
      expect(changed === -1 ? "" : last.slice(changed - 200, changed + 50)).toBe("");
      expect(last.includes("Project rule: run the tests.")).toBe(true);
      expect(last.includes("Sub rule: this folder is generated.")).toBe(true);
      // ...and the user is told, before that turn, which file changed.
      expect(JSON.stringify(fresh.client.view(sessionId))).toContain(`${join(w, "CLAUDE.md")} was changed`);
    } finally {
      await fresh.close();
    }
    // `show --context` prints what was recorded: the files as they were read, and the one loaded on demand.
    const shown = await runCli(["show", sessionId, "--context"], box.env);
    expect(shown.code).toBe(0);
    const original = new Bun.CryptoHasher("sha256").update(PROJECT_CLAUDE).digest("hex");
    expect(shown.stdout).toContain(
      `instructions ${join(w, "CLAUDE.md")} (project, ${Buffer.byteLength(PROJECT_CLAUDE)} B, sha256 ${original.slice(0, 12)})`,
    );
    expect(shown.stdout).toMatch(
      new RegExp(`loaded on demand \\(with call [^)]+\\): ${join(w, "sub", "CLAUDE.md")} \\(nested`),
    );
  });
});

describe("/context", () => {
  test("tells in tokens what fills the window, part by part, without asking the model", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(anthropicKit));
    Object.assign(box.env, anthropicKit.env(server));
    plantRepository(box);
    const c = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      server.enqueue({ sse: anthropicKit.text("Hello.") });
      await prompt(c.ctx, sessionId, "Hi");
      await prompt(c.ctx, sessionId, "/context");
      expect(server.requests.length).toBe(1);
      const shown = JSON.stringify(c.client.view(sessionId));
      expect(shown).toMatch(/Context: about \d+ tokens of the model's \d+/);
      expect(shown).toContain("system prompt: about");
      expect(shown).toContain(`${join(box.workspace, "CLAUDE.md")}: about`);
      expect(shown).toContain("tools: about");
      expect(shown).toContain("tool results: about 0 tokens");
      expect(c.client.view(sessionId).commands?.map((cmd) => cmd.name)).toContain("context");
    } finally {
      await c.close();
    }
  });
});

/** The entries of a view that carry the context facts' data (`_meta.verbatim.context`). */
function contextEntries(view: unknown): unknown[] {
  const found: unknown[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      const record = value as Record<string, unknown>;
      const verbatim = ((record.meta ?? record._meta) as { verbatim?: { context?: unknown } } | undefined)?.verbatim;
      if (verbatim?.context !== undefined) found.push(record);
      else Object.values(record).forEach(walk);
    }
  };
  walk(view);
  return found;
}
