/**
 * Custom subagents as Claude Code users keep them (agent-conventions §4.5): Markdown files in
 * `.claude/agents/` (the project's) and `~/.claude/agents/` (the user's), scanned recursively,
 * each with YAML front matter (`name` and `description` required; `tools` a comma list or YAML
 * list, omitted = the parent's tools; `model`) and its body the subagent's system prompt. On a
 * name clash the project's wins over the user's, and a built-in type over both; each clash is told.
 * A file whose front matter does not parse, or lacks a name or description, is skipped and named.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { OfferedItem } from "../../journal/facts/index.ts";
import { homeDir } from "../../shared/home-dir.ts";
import { sha256Hex } from "../../shared/sha256.ts";
import { ownDirectory, readOwnFile, type SkippedFile, userConfigRoots } from "../confinement/own-files.ts";
import { frontMatter, listField, textField } from "../instructions/front-matter.ts";
import type { Clash } from "../commands/command-files.ts";
import { subagentKinds, type SubagentKind } from "../tools/subagent-launcher.ts";

type Env = Record<string, string | undefined>;

export type CustomAgent = SubagentKind & { path: string; sha256: string; scope: OfferedItem["scope"] };

export type AgentFiles = { agents: CustomAgent[]; skipped: SkippedFile[]; clashes: Clash[] };

const MAX_FILE = 200_000;
const NAME = /^[a-z0-9][a-z0-9-]*$/;

/** The custom subagents of a session in `cwd`, project first. */
export async function agentFiles(p: { cwd: string; roots: readonly string[]; env: Env }): Promise<AgentFiles> {
  const out: AgentFiles = { agents: [], skipped: [], clashes: [] };
  const folders = [
    { dir: join(p.cwd, ".claude", "agents"), roots: [...p.roots], scope: "project" as const },
    { dir: join(homeDir(p.env), ".claude", "agents"), roots: userConfigRoots(p.env), scope: "user" as const },
  ];
  const taken = new Map<string, string>(subagentKinds.map((k) => [k.name, "verbatim's built-in subagent"]));
  for (const folder of folders) {
    const dir = ownDirectory(folder.dir, folder.roots);
    if (dir.state === "skipped") out.skipped.push(dir.skipped);
    if (dir.state !== "ok") continue;
    for (const path of markdownUnder(folder.dir)) {
      const agent = await readAgent(path, folder, out.skipped);
      if (!agent) continue;
      const kept = taken.get(agent.name);
      if (kept) {
        out.clashes.push({ label: `the subagent ${agent.name}`, kept, passed: path });
        continue;
      }
      taken.set(agent.name, path);
      out.agents.push(agent);
    }
  }
  return out;
}

function markdownUnder(dir: string): string[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) files.push(...markdownUnder(path));
    else if (e.name.endsWith(".md")) files.push(path);
  }
  return files;
}

async function readAgent(
  path: string,
  folder: { roots: string[]; scope: OfferedItem["scope"] },
  skipped: SkippedFile[],
): Promise<CustomAgent | undefined> {
  const read = readOwnFile(path, folder.roots, { maxBytes: MAX_FILE });
  if (read.state === "skipped") skipped.push(read.skipped);
  if (read.state !== "ok") return undefined;
  const parsed = await frontMatter(read.text);
  if (!parsed.ok) {
    skipped.push({ path, reason: parsed.error });
    return undefined;
  }
  const name = textField(parsed.fields, "name");
  const description = textField(parsed.fields, "description");
  if (!name || !NAME.test(name) || !description) {
    skipped.push({
      path,
      reason: "its front matter needs a `name` (lowercase letters, digits and hyphens) and a `description`",
    });
    return undefined;
  }
  const tools = listField(parsed.fields, "tools");
  const model = textField(parsed.fields, "model");
  return {
    name,
    description,
    systemPrompt: parsed.body.trim(),
    path,
    sha256: sha256Hex(read.text),
    scope: folder.scope,
    ...(tools ? { tools } : {}),
    ...(model ? { model } : {}),
  };
}

/** A custom agent as `context_given` records it. */
export function offeredAgent(agent: CustomAgent): OfferedItem {
  return {
    name: agent.name,
    description: agent.description,
    path: agent.path,
    sha256: agent.sha256,
    scope: agent.scope,
  };
}
