/** The example in docs/hooks.md works as written: its files are taken from the page itself. */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { connectInProcess, newSession, prompt } from "../support/acp-session.ts";
import { outcomeOf } from "../support/cards.ts";
import { trustWorkspace } from "../support/hooks.ts";
import { sandbox } from "../support/workspace.ts";
import { cards } from "../parity/harness.ts";

/** The files of the page's example: each fenced block after a `<!-- example: PATH -->` marker. */
function exampleFiles(): Record<string, string> {
  const page = readFileSync(join(import.meta.dir, "../../docs/hooks.md"), "utf8");
  const files: Record<string, string> = {};
  for (const match of page.matchAll(/<!-- example: (\S+) -->\n```\w*\n([\s\S]*?)```/g)) files[match[1]!] = match[2]!;
  return files;
}

describe("the docs example", () => {
  test("blocks rm -rf and lets other commands run", async () => {
    const files = exampleFiles();
    expect(Object.keys(files).sort()).toEqual([".claude/hooks/no-rm-rf.sh", ".claude/settings.json"]);
    const box = sandbox("scripted/command");
    for (const [path, text] of Object.entries(files)) {
      const full = join(box.workspace, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
    }
    chmodSync(join(box.workspace, ".claude/hooks/no-rm-rf.sh"), 0o755);
    trustWorkspace(box);
    mkdirSync(join(box.workspace, "build"));
    const agent = await connectInProcess(box.env);
    const { sessionId } = await newSession(agent.ctx, box.workspace);
    await prompt(agent.ctx, sessionId, "rm -rf build");
    await prompt(agent.ctx, sessionId, "echo ok > ok.txt");
    await agent.close();
    const [blocked, allowed] = cards(agent.client.view(sessionId));
    expect(existsSync(join(box.workspace, "build"))).toBe(true);
    expect(outcomeOf(blocked)).toEqual({
      by: "hook",
      reason: "rm -rf is not allowed in this repository; delete files one by one",
    });
    expect(allowed?.status).toBe("completed");
    expect(readFileSync(join(box.workspace, "ok.txt"), "utf8")).toBe("ok\n");
  });
});
