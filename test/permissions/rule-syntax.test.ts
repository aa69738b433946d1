/**
 * Claude Code's permission rule syntax, row by row (agent-conventions §1.3-1.5): each form, the
 * path anchors, the wrappers taken off, compound commands, redirections, and deny over ask over
 * allow. Judged as the gate judges (rules/rule-set.ts), on calls of the real tools.
 */
import { describe, expect, test } from "bun:test";
import { callSubject } from "../../src/core/permissions/call-subject.ts";
import { readCommandLine } from "../../src/core/permissions/rules/shell-tree.ts";
import { suggestedCommandRule } from "../../src/core/permissions/rules/command-match.ts";
import {
  isBad,
  judge,
  ruleEntry,
  type RuleEntry,
  type BadRuleEntry,
} from "../../src/core/permissions/rules/rule-set.ts";
import { parseRule, type RuleDecision } from "../../src/core/permissions/rules/rule-text.ts";
import { defaultTools } from "../../src/core/tools/registry.ts";
import type { Tool } from "../../src/core/tools/tool.ts";

const CWD = "/work/project";
const HOME = "/home/ada";
const tools = new Map(defaultTools().map((t) => [t.name, t as Tool]));
const mcpTool = (name: string): Tool => ({ ...tools.get("Read")!, name, access: "execute" });

type Rules = Partial<Record<RuleDecision, string[]>>;
type SourceFile = { scope: "user" | "project" | "local" | "managed"; anchor: string };

function entries(rules: Rules, file: SourceFile = { scope: "project", anchor: CWD }) {
  const all: (RuleEntry | BadRuleEntry)[] = [];
  for (const decision of ["allow", "ask", "deny"] as const)
    for (const text of rules[decision] ?? [])
      all.push(
        ruleEntry(
          text,
          decision,
          { scope: file.scope, path: `${file.anchor}/settings.json` },
          {
            cwd: CWD,
            home: HOME,
            source: file.anchor,
          },
        ),
      );
  return { rules: all.filter((e): e is RuleEntry => !isBad(e)), bad: all.filter(isBad) };
}

/** The decision the rules give a call (`none`: no rule applies). */
async function verdict(rules: Rules, tool: string, input: Record<string, unknown>, file?: SourceFile): Promise<string> {
  const t = tools.get(tool) ?? mcpTool(tool);
  const v = judge(entries(rules, file), await callSubject(t, input, { cwd: CWD, home: HOME, roots: [CWD] }));
  return v?.decision ?? "none";
}
const bash = (command: string) => ({ command });
const read = (file_path: string) => ({ file_path });

describe("Tool and Tool(*)", () => {
  test("a bare tool name and Tool(*) cover every call of the tool", async () => {
    expect(await verdict({ deny: ["WebFetch"] }, "WebFetch", { url: "https://a.example/", prompt: "" })).toBe("deny");
    expect(await verdict({ allow: ["Bash(*)"] }, "Bash", bash("anything at all"))).toBe("allow");
  });
  test("a bare Read covers the search tools; a bare Edit every writing tool", async () => {
    expect(await verdict({ deny: ["Read"] }, "Grep", { pattern: "x" })).toBe("deny");
    expect(await verdict({ allow: ["Edit"] }, "Write", { file_path: `${CWD}/a`, content: "" })).toBe("allow");
  });
  test("Task and Agent name the same tool", async () => {
    expect(
      await verdict({ deny: ["Agent"] }, "Task", { description: "d", prompt: "p", subagent_type: "Explore" }),
    ).toBe("deny");
  });
});

describe("Tool(param:value)", () => {
  test("matches a top-level field, with * wildcards, in deny and ask", async () => {
    expect(await verdict({ deny: ["Bash(timeout:6*)"] }, "Bash", { command: "ls", timeout: 60000 })).toBe("deny");
    expect(
      await verdict({ ask: ["Agent(subagent_type:Expl*)"] }, "Task", {
        description: "d",
        prompt: "p",
        subagent_type: "Explore",
      }),
    ).toBe("ask");
    expect(await verdict({ deny: ["Bash(timeout:6*)"] }, "Bash", { command: "ls" })).toBe("none");
  });
  test("is refused in an allow, and on command, file_path, path, notebook_path or url", async () => {
    expect(parseRule("Bash(run_in_background:true)", "allow")).toHaveProperty("bad");
    expect(parseRule("Bash(run_in_background:true)", "deny")).toMatchObject({ form: "param" });
    for (const field of ["file_path", "path"]) expect(parseRule(`Read(${field}:x)`, "deny")).toHaveProperty("bad");
  });
});

describe("* and mcp__ as tool names", () => {
  test("* denies every tool; mcp__server covers its tools; mcp__server__* and mcp__server__tool too", async () => {
    expect(await verdict({ deny: ["*"] }, "Read", read(`${CWD}/a`))).toBe("deny");
    expect(await verdict({ deny: ["mcp__github"] }, "mcp__github__create_issue", {})).toBe("deny");
    expect(await verdict({ allow: ["mcp__github__*"] }, "mcp__github__list", {})).toBe("allow");
    expect(await verdict({ allow: ["mcp__github__list"] }, "mcp__github__create_issue", {})).toBe("none");
    expect(await verdict({ deny: ["mcp__*"] }, "mcp__other__x", {})).toBe("deny");
  });
  test("an allow glob needs a literal mcp__<server>__ prefix", async () => {
    expect(parseRule("*", "allow")).toHaveProperty("bad");
    expect(parseRule("mcp__*", "allow")).toHaveProperty("bad");
    expect(parseRule("mcp__*", "ask")).toMatchObject({ form: "tool" });
  });
});

describe("Bash patterns", () => {
  test("Bash(npm run build) is exact", async () => {
    expect(await verdict({ allow: ["Bash(npm run build)"] }, "Bash", bash("npm run build"))).toBe("allow");
    expect(await verdict({ allow: ["Bash(npm run build)"] }, "Bash", bash("npm run build --prod"))).toBe("none");
  });
  test("* is any characters, spaces included, in any position", async () => {
    expect(await verdict({ allow: ["Bash(npm run *)"] }, "Bash", bash("npm run test --watch"))).toBe("allow");
    expect(await verdict({ allow: ["Bash(git * main)"] }, "Bash", bash("git push origin main"))).toBe("allow");
    expect(await verdict({ allow: ["Bash(* --version)"] }, "Bash", bash("node --version"))).toBe("allow");
  });
  test("a trailing ' *' is a word boundary; 'ls*' is not", async () => {
    expect(await verdict({ allow: ["Bash(ls *)"] }, "Bash", bash("ls"))).toBe("allow");
    expect(await verdict({ allow: ["Bash(ls *)"] }, "Bash", bash("lsof"))).toBe("none");
    expect(await verdict({ allow: ["Bash(ls*)"] }, "Bash", bash("lsof"))).toBe("allow");
  });
  test("the legacy ':*' is recognised at the end only", async () => {
    expect(await verdict({ allow: ["Bash(npm run test:*)"] }, "Bash", bash("npm run test -- --watch"))).toBe("allow");
    expect(await verdict({ allow: ["Bash(npm run test:*)"] }, "Bash", bash("npm run testing"))).toBe("none");
    expect(await verdict({ allow: ["Bash(a:*b)"] }, "Bash", bash("a:xb"))).toBe("allow");
  });
});

describe("wrappers and assignments", () => {
  test.each([
    "timeout 30 npm test",
    "time npm test",
    "nice -n 10 npm test",
    "nohup npm test",
    "stdbuf -oL npm test",
    "command npm test",
    "builtin npm test",
    "noglob npm test",
    "xargs npm test",
  ])("%s is judged as npm test", async (command) => {
    expect(await verdict({ allow: ["Bash(npm test)"] }, "Bash", bash(command))).toBe("allow");
  });
  test("npx, docker exec, devbox run and mise exec are not taken off", async () => {
    expect(await verdict({ allow: ["Bash(jest *)"] }, "Bash", bash("npx jest"))).toBe("none");
    expect(await verdict({ allow: ["Bash(ls *)"] }, "Bash", bash("docker exec box ls"))).toBe("none");
  });
  test("a safe assignment is taken off for an allow; any assignment for a deny", async () => {
    expect(await verdict({ allow: ["Bash(npm test)"] }, "Bash", bash("NODE_ENV=test npm test"))).toBe("allow");
    expect(await verdict({ allow: ["Bash(npm test)"] }, "Bash", bash("LD_PRELOAD=/x.so npm test"))).toBe("none");
    expect(await verdict({ deny: ["Bash(git push *)"] }, "Bash", bash("GIT_SSH_COMMAND=x git push origin"))).toBe(
      "deny",
    );
  });
  test("watch, setsid, flock and find -exec never match a wildcard allow", async () => {
    expect(await verdict({ allow: ["Bash(watch *)"] }, "Bash", bash("watch rm -rf x"))).toBe("none");
    expect(await verdict({ allow: ["Bash(find *)"] }, "Bash", bash("find . -delete"))).toBe("none");
    expect(await verdict({ allow: ["Bash(find *)"] }, "Bash", bash("find . -name x"))).toBe("allow");
  });
});

describe("compound commands", () => {
  test.each(["&&", "||", ";", "|", "|&", "&", "\n"])("every command around %j must be allowed", async (sep) => {
    const command = `npm test ${sep} git push`;
    expect(await verdict({ allow: ["Bash(npm test)"] }, "Bash", bash(command))).toBe("none");
    expect(await verdict({ allow: ["Bash(npm test)", "Bash(git push)"] }, "Bash", bash(command))).toBe("allow");
    expect(await verdict({ allow: ["Bash(npm test)"], deny: ["Bash(git push)"] }, "Bash", bash(command))).toBe("deny");
  });
  test("the commands inside $(...), backquotes, subshells, process substitutions and if bodies are judged too", async () => {
    expect(await verdict({ allow: ["Bash(echo *)"] }, "Bash", bash("echo $(rm -rf x)"))).toBe("none");
    expect(await verdict({ allow: ["Bash(echo *)"], deny: ["Bash(rm *)"] }, "Bash", bash("echo `rm -rf x`"))).toBe(
      "deny",
    );
    expect(await verdict({ deny: ["Bash(rm *)"] }, "Bash", bash("(cd build && rm -rf out)"))).toBe("deny");
    expect(await verdict({ deny: ["Bash(curl *)"] }, "Bash", bash("diff <(curl -s a) b"))).toBe("deny");
    expect(await verdict({ ask: ["Bash(git push *)"] }, "Bash", bash("if true; then git push origin; fi"))).toBe("ask");
    expect(await verdict({ allow: ["Bash(echo *)", "Bash(date)"] }, "Bash", bash('echo "today: $(date)"'))).toBe(
      "allow",
    );
  });
  test("a line the parser cannot read is asked about whole, whatever allows its words", async () => {
    expect(await readCommandLine("echo 'unfinished")).toHaveProperty("unreadable");
    expect(await readCommandLine(`echo ${"x".repeat(10_001)}`)).toHaveProperty("unreadable");
    expect(await verdict({ allow: ["Bash(echo *)"] }, "Bash", bash("echo 'unfinished"))).toBe("none");
  });
  test("redirect targets are checked as Edit writes; /dev/null is exempt", async () => {
    expect(
      await verdict({ allow: ["Bash(echo *)"], deny: ["Edit(./protected/**)"] }, "Bash", bash("echo x > protected/a")),
    ).toBe("deny");
    expect(
      await verdict({ allow: ["Bash(echo *)"], deny: ["Edit(//dev/**)"] }, "Bash", bash("echo x 2>/dev/null")),
    ).toBe("allow");
    expect(await verdict({ allow: ["Bash(echo *)"] }, "Bash", bash("echo x >> /etc/outside"))).toBe("none");
  });
  test("a Read deny holds for the files a reading command names", async () => {
    expect(await verdict({ allow: ["Bash(cat *)"], deny: ["Read(.env)"] }, "Bash", bash("cat .env"))).toBe("deny");
  });
});

describe("path anchors", () => {
  test("//path is the filesystem root", async () => {
    expect(await verdict({ deny: ["Read(//etc/**)"] }, "Read", read("/etc/passwd"))).toBe("deny");
  });
  test("~/path is the home", async () => {
    expect(await verdict({ deny: ["Read(~/.ssh/**)"] }, "Read", read(`${HOME}/.ssh/id_rsa`))).toBe("deny");
  });
  test("/path is the settings file's root: the project for project settings, ~/.claude for the user's", async () => {
    expect(await verdict({ deny: ["Read(/secrets/**)"] }, "Read", read(`${CWD}/secrets/a`))).toBe("deny");
    const user = { scope: "user" as const, anchor: `${HOME}/.claude` };
    expect(await verdict({ deny: ["Read(/secrets/**)"] }, "Read", read(`${CWD}/secrets/a`), user)).toBe("none");
    expect(await verdict({ deny: ["Read(/secrets/**)"] }, "Read", read(`${HOME}/.claude/secrets/a`), user)).toBe(
      "deny",
    );
  });
  test("./path and a bare path are the working directory; a bare name matches at any depth", async () => {
    expect(await verdict({ deny: ["Read(./.env)"] }, "Read", read(`${CWD}/.env`))).toBe("deny");
    expect(await verdict({ deny: ["Read(./.env)"] }, "Read", read(`${CWD}/sub/.env`))).toBe("none");
    expect(await verdict({ deny: ["Read(.env)"] }, "Read", read(`${CWD}/sub/deep/.env`))).toBe("deny");
    expect(await verdict({ deny: ["Read(*.key)"] }, "Read", read(`${CWD}/a/b.key`))).toBe("deny");
  });
  test("dir/** allows <cwd>/dir only, and denies any dir below the working directory", async () => {
    expect(
      await verdict({ allow: ["Edit(src/**)"] }, "Edit", {
        ...read(`${CWD}/src/a.ts`),
        old_string: "a",
        new_string: "b",
      }),
    ).toBe("allow");
    expect(
      await verdict({ allow: ["Edit(src/**)"] }, "Edit", {
        ...read(`${CWD}/x/src/a.ts`),
        old_string: "a",
        new_string: "b",
      }),
    ).toBe("none");
    expect(await verdict({ deny: ["Read(build/**)"] }, "Read", read(`${CWD}/pkg/build/out.js`))).toBe("deny");
  });
  test("Read covers Read, Grep and Glob; Edit covers Edit and Write", async () => {
    expect(await verdict({ deny: ["Read(./private/**)"] }, "Grep", { pattern: "x", path: `${CWD}/private` })).toBe(
      "deny",
    );
    expect(await verdict({ deny: ["Read(./private/**)"] }, "Glob", { pattern: "*", path: `${CWD}/private/a` })).toBe(
      "deny",
    );
    expect(await verdict({ allow: ["Edit(./docs/**)"] }, "Write", { file_path: `${CWD}/docs/a.md`, content: "" })).toBe(
      "allow",
    );
  });
  test("a Read deny also keeps Edit and Write off the path", async () => {
    expect(await verdict({ deny: ["Read(.env)"] }, "Write", { file_path: `${CWD}/.env`, content: "" })).toBe("deny");
  });
  test("path rules on Write, Glob, MultiEdit and NotebookEdit are never consulted: they are bad rules", async () => {
    for (const tool of ["Write", "Glob", "MultiEdit", "NotebookEdit"])
      expect(parseRule(`${tool}(./x)`, "deny")).toHaveProperty("bad");
  });
});

describe("WebFetch(domain:...)", () => {
  const fetch = (url: string) => ({ url, prompt: "" });
  test("a host, compared without case", async () => {
    expect(await verdict({ allow: ["WebFetch(domain:Example.com)"] }, "WebFetch", fetch("https://EXAMPLE.com/x"))).toBe(
      "allow",
    );
  });
  test("*.example.com covers subdomains at any depth, not the apex", async () => {
    const rules = { allow: ["WebFetch(domain:*.example.com)"] };
    expect(await verdict(rules, "WebFetch", fetch("https://a.b.example.com/"))).toBe("allow");
    expect(await verdict(rules, "WebFetch", fetch("https://example.com/"))).toBe("none");
  });
  test("another * stays inside one label", async () => {
    const rules = { allow: ["WebFetch(domain:api-*.example.com)"] };
    expect(await verdict(rules, "WebFetch", fetch("https://api-eu.example.com/"))).toBe("allow");
    expect(await verdict(rules, "WebFetch", fetch("https://api-eu.evil.example.com/"))).toBe("none");
  });
  test("a WebFetch rule without domain: is a bad rule", async () => {
    expect(parseRule("WebFetch(https://example.com)", "allow")).toHaveProperty("bad");
  });
});

describe("Agent(...) and Skill(...)", () => {
  test("Agent(Explore) names a subagent type", async () => {
    const task = (subagent_type: string) => ({ description: "d", prompt: "p", subagent_type });
    expect(await verdict({ deny: ["Agent(Explore)"] }, "Task", task("Explore"))).toBe("deny");
    expect(await verdict({ deny: ["Agent(Explore)"] }, "Task", task("general-purpose"))).toBe("none");
  });
  test("Skill(name) and Skill(name *) name a skill, with or without arguments", async () => {
    expect(await verdict({ allow: ["Skill(deploy *)"] }, "Skill", { skill: "deploy", args: "prod" })).toBe("allow");
    expect(await verdict({ allow: ["Skill(deploy *)"] }, "Skill", { skill: "deploy" })).toBe("allow");
    expect(await verdict({ allow: ["Skill(deploy)"] }, "Skill", { skill: "deployer" })).toBe("none");
  });
});

describe("precedence", () => {
  test("deny wins over ask over allow, whatever the order or specificity", async () => {
    expect(
      await verdict(
        { allow: ["Bash(git push origin main)"], deny: ["Bash(git *)"] },
        "Bash",
        bash("git push origin main"),
      ),
    ).toBe("deny");
    expect(
      await verdict({ allow: ["Bash(git push *)"], ask: ["Bash(git push *)"] }, "Bash", bash("git push origin")),
    ).toBe("ask");
  });
  test("a bad deny makes its tool ask, and only its tool", async () => {
    const set = entries({ deny: ["Bash(npm run"] });
    const subject = async (tool: string, input: Record<string, unknown>) =>
      await callSubject(tools.get(tool)!, input, { cwd: CWD, home: HOME, roots: [CWD] });
    expect(judge(set, await subject("Bash", bash("ls")))).toMatchObject({
      decision: "ask",
      bad: { text: "Bash(npm run" },
    });
    expect(judge(set, await subject("Read", read(`${CWD}/a`)))).toBeUndefined();
  });
});

describe("the rule an always answer adds", () => {
  test.each([
    ["npm run test -- --watch", "npm run test:*"],
    ["git status --short", "git status:*"],
    ["npm test", "npm test"],
    ["python3 script.py --flag", "python3 script.py --flag"],
    ["ls -la", "ls:*"],
  ])("%s → Bash(%s)", async (command, rule) => {
    const reading = await readCommandLine(command);
    if ("unreadable" in reading) throw new Error("unreadable");
    expect(suggestedCommandRule(reading.parts[0]!)).toBe(rule);
  });
});
