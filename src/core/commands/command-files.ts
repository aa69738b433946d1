/**
 * The commands and skills a user keeps (agent-conventions §4.3-4.4), read as Claude Code reads
 * them: skills from `~/.claude/skills/<name>/SKILL.md` and (in a trusted workspace)
 * `.claude/skills/<name>/SKILL.md` of the working directory and each parent up to the git root
 * (instruction-files.ts's projectFolders, the closest first); Markdown commands from `~/.claude/commands` and the project's
 * `.verbatim/commands` and `.claude/commands`, a subfolder naming a namespace (`frontend/build.md`
 * is `/frontend:build`). Front matter is YAML. On a name clash the first found wins, in this order:
 * the built-in commands, personal skills, project skills, personal commands, project commands;
 * each clash is told once. A file that cannot be read or whose front matter does not parse is
 * skipped and named.
 */
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { OfferedItem } from "../../journal/facts/index.ts";
import { homeDir } from "../../shared/home-dir.ts";
import { sha256Hex } from "../../shared/sha256.ts";
import { ownDirectory, readOwnFile, type SkippedFile, userConfigRoots } from "../confinement/own-files.ts";
import { booleanField, frontMatter, listField, textField } from "../instructions/front-matter.ts";
import { projectFolders } from "../instructions/instruction-files.ts";

type Env = Record<string, string | undefined>;

/** A command or skill as read. */
export type UserCommand = {
  name: string;
  description: string;
  hint?: string;
  body: string;
  path: string;
  sha256: string;
  scope: OfferedItem["scope"];
  kind: "skill" | "command";
  /** The tools the command may use without asking (honoured only for a personal command, or in a trusted workspace). */
  allowedTools?: string[];
  /** The tools refused while it acts (`disallowed-tools`), in any workspace. */
  disallowedTools?: string[];
  /** The model it runs on (`model`: an alias, an id, `provider/model` or `inherit`: model-alias.ts). */
  model?: string;
  /** How hard the model thinks while it acts (`effort`: `low`, `medium`, `high`, `max`). */
  effort?: string;
  /** The names of its positional arguments (`arguments`): `$name` is the argument at that place. */
  argumentNames?: string[];
  /** `context: fork`: the skill runs in a subagent of type `agent` (default general-purpose), whose report is its result. */
  fork?: { agent?: string };
  /** Its own hooks (`hooks`), per event, as written: registered once it is invoked, for the rest of the session (a project skill's in a trusted workspace). */
  hooks?: Record<string, unknown[]>;
  /** `paths`: globs of the files that make the skill offered to the model once one is read. */
  paths?: string[];
  /** `shell`: what runs its `` !`cmd` `` inlines (`bash`, the default; no other is supported). */
  shell?: string;
  /** A skill the model may not load itself (`disable-model-invocation: true`). */
  modelInvocable: boolean;
  /** A skill the user cannot type (`user-invocable: false`): offered to the model only. */
  userInvocable: boolean;
  /** A skill's own folder (`${CLAUDE_SKILL_DIR}`). */
  dir?: string;
};

/** Two definitions of one name: `label` names it (`/deploy`, `the subagent reviewer`), `kept` and `passed` say where each is. */
export type Clash = { label: string; kept: string; passed: string };

export type CommandFiles = { commands: UserCommand[]; skipped: SkippedFile[]; clashes: Clash[]; untrusted: string[] };

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const MAX_FILE = 200_000;
/** How much of a description the listing shows (Claude Code cuts at 1,536 characters). */
const MAX_DESCRIPTION = 1536;

/** The commands the engine carries out itself: nothing a user keeps takes their names. */
export const BUILT_IN_NAMES = new Set(["compact", "context"]);

type Folder = { dir: string; roots: string[]; scope: OfferedItem["scope"]; kind: "skill" | "command" };

/** Every command and skill the session in `cwd` offers, in precedence order, with what was passed over. */
export async function commandFiles(p: {
  cwd: string;
  roots: readonly string[];
  env: Env;
  trusted: boolean;
}): Promise<CommandFiles> {
  const home = homeDir(p.env);
  const user = userConfigRoots(p.env);
  const project = [...p.roots];
  const folders: Folder[] = [
    { dir: join(home, ".claude", "skills"), roots: user, scope: "user", kind: "skill" },
    // The working directory's skills, then each parent's up to the git root: the closest wins a clash.
    ...projectFolders(p.cwd, p.roots).map(
      ({ dir, roots }): Folder => ({ dir: join(dir, ".claude", "skills"), roots, scope: "project", kind: "skill" }),
    ),
    { dir: join(home, ".claude", "commands"), roots: user, scope: "user", kind: "command" },
    { dir: join(p.cwd, ".verbatim", "commands"), roots: project, scope: "project", kind: "command" },
    { dir: join(p.cwd, ".claude", "commands"), roots: project, scope: "project", kind: "command" },
  ];
  const out: CommandFiles = { commands: [], skipped: [], clashes: [], untrusted: [] };
  const byName = new Map<string, UserCommand>();
  for (const folder of folders) {
    const dir = ownDirectory(folder.dir, folder.roots);
    if (dir.state === "skipped") out.skipped.push(dir.skipped);
    if (dir.state !== "ok") continue;
    if (folder.kind === "skill" && folder.scope === "project" && !p.trusted) {
      out.untrusted.push(folder.dir);
      continue;
    }
    for (const entry of folder.kind === "skill" ? skillFiles(folder.dir) : commandFilesIn(folder.dir)) {
      const command = await readCommand(entry, folder, out.skipped);
      if (!command) continue;
      if (BUILT_IN_NAMES.has(command.name)) {
        out.clashes.push({ label: `/${command.name}`, kept: "verbatim's built-in command", passed: command.path });
        continue;
      }
      const kept = byName.get(command.name);
      if (kept) {
        out.clashes.push({ label: `/${command.name}`, kept: kept.path, passed: command.path });
        continue;
      }
      byName.set(command.name, command);
      out.commands.push(command);
    }
  }
  return out;
}

type Entry = { name: string; path: string; dir?: string };

/** `<dir>/<name>/SKILL.md` for each folder in `dir`. */
function skillFiles(dir: string): Entry[] {
  return sortedEntries(dir)
    .filter((e) => e.isDirectory() && NAME.test(e.name))
    .map((e) => ({ name: e.name, path: join(dir, e.name, "SKILL.md"), dir: join(dir, e.name) }));
}

/** Every `.md` file under `dir`, named by its path: `a/b/c.md` is `a:b:c`. */
function commandFilesIn(dir: string, under = dir): Entry[] {
  const found: Entry[] = [];
  for (const e of sortedEntries(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory()) found.push(...commandFilesIn(path, under));
    else if (e.name.endsWith(".md")) {
      const parts = relative(under, path).slice(0, -3).split(sep);
      if (parts.every((part) => NAME.test(part))) found.push({ name: parts.join(":"), path });
    }
  }
  return found;
}

function sortedEntries(dir: string): import("node:fs").Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

async function readCommand(entry: Entry, folder: Folder, skipped: SkippedFile[]): Promise<UserCommand | undefined> {
  const read = readOwnFile(entry.path, folder.roots, { maxBytes: MAX_FILE });
  if (read.state === "skipped") skipped.push(read.skipped);
  if (read.state !== "ok") return undefined;
  const parsed = await frontMatter(read.text);
  if (!parsed.ok) {
    skipped.push({ path: entry.path, reason: parsed.error });
    return undefined;
  }
  const { fields, body } = parsed;
  const firstLine =
    body
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? entry.name;
  const described =
    textField(fields, "description") ?? (firstLine.length > 100 ? `${firstLine.slice(0, 99)}…` : firstLine);
  const whenToUse = textField(fields, "when_to_use");
  const description = (whenToUse ? `${described} ${whenToUse}` : described).slice(0, MAX_DESCRIPTION);
  const hint = textField(fields, "argument-hint");
  const allowedTools = listField(fields, "allowed-tools");
  const model = textField(fields, "model");
  const extra = skillFields(fields);
  return {
    name: entry.name,
    description,
    ...(hint ? { hint } : {}),
    body,
    path: entry.path,
    sha256: sha256Hex(read.text),
    scope: folder.scope,
    kind: folder.kind,
    ...(allowedTools ? { allowedTools } : {}),
    ...(model ? { model } : {}),
    modelInvocable: folder.kind === "skill" && booleanField(fields, "disable-model-invocation") !== true,
    userInvocable: booleanField(fields, "user-invocable") !== false,
    ...(entry.dir ? { dir: entry.dir } : {}),
    ...extra,
  };
}

/** The front-matter fields beyond a command's first ones (agent-conventions §4.3), as given. */
function skillFields(fields: Record<string, unknown>): Partial<UserCommand> {
  const out: Partial<UserCommand> = {};
  const disallowed = listField(fields, "disallowed-tools");
  if (disallowed?.length) out.disallowedTools = disallowed;
  const effort = textField(fields, "effort");
  if (effort) out.effort = effort;
  const names =
    typeof fields.arguments === "string" ? fields.arguments.split(/[\s,]+/) : listField(fields, "arguments");
  if (names?.length) out.argumentNames = names.filter((n) => n.length > 0);
  if (textField(fields, "context") === "fork") {
    const agent = textField(fields, "agent");
    out.fork = agent ? { agent } : {};
  }
  const hooks = fields.hooks;
  if (typeof hooks === "object" && hooks !== null && !Array.isArray(hooks)) {
    const groups = Object.entries(hooks).filter((e): e is [string, unknown[]] => Array.isArray(e[1]));
    if (groups.length) out.hooks = Object.fromEntries(groups);
  }
  const paths = listField(fields, "paths");
  if (paths?.length) out.paths = paths;
  const shell = textField(fields, "shell");
  if (shell) out.shell = shell;
  return out;
}

/** A command or skill as `context_given` records it. */
export function offered(command: UserCommand): OfferedItem {
  return {
    name: command.name,
    description: command.description,
    path: command.path,
    sha256: command.sha256,
    scope: command.scope,
    ...(command.modelInvocable && command.paths ? { paths: command.paths } : {}),
  };
}
