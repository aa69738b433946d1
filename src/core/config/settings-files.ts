/**
 * The settings files a session reads, as Claude Code keeps them, with verbatim's own config at the
 * same levels (agent-conventions §1.1): lowest precedence first,
 *
 * 1. user: `~/.claude/settings.json`, then verbatim's `$XDG_CONFIG_HOME/verbatim/config.json`;
 * 2. project: `.claude/settings.json`, then verbatim's `.verbatim/config.json`;
 * 3. local: `.claude/settings.local.json`;
 * 4. managed: `managed-settings.json`, then `managed-settings.d/*.json` in name order, in the
 *    system's managed folder (`/etc/claude-code` on Linux; `VERBATIM_MANAGED_SETTINGS_DIR`
 *    names another), which nothing overrides.
 *
 * Arrays merge across every file; a scalar is the highest file's. Each file is read through the
 * confinement module, inside its own roots, and size-capped; a file that exists but cannot be
 * read or parsed is reported, never skipped in silence. Sections (permissions, and the keys later
 * features add) take what they need from the files read here.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SettingsScope } from "../../journal/facts/index.ts";
import { homeDir } from "../../shared/home-dir.ts";
import { sha256Hex } from "../../shared/sha256.ts";
import { userConfigFolder } from "../../shared/user-config-folder.ts";
import { readOwnFile } from "../confinement/own-files.ts";

type Env = Record<string, string | undefined>;

export type SettingsFileSpec = {
  path: string;
  scope: SettingsScope;
  /** Claude Code's file, or verbatim's own config at that level. */
  origin: "claude" | "verbatim";
  /** Where the file must resolve to be read. */
  roots: string[];
  /** The directory a `/path` rule of this file is anchored at. */
  anchor: string;
};

export type SettingsFile = SettingsFileSpec &
  ({ state: "ok"; value: Record<string, unknown>; sha256: string } | { state: "unread"; reason: string });

/** The most a settings file may hold; a larger one is not read. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

const MANAGED_DIRS: Partial<Record<NodeJS.Platform, string>> = {
  darwin: "/Library/Application Support/ClaudeCode",
  linux: "/etc/claude-code",
  win32: "C:\\Program Files\\ClaudeCode",
};

/** The folder of managed settings: `VERBATIM_MANAGED_SETTINGS_DIR`, else the system's. */
export function managedSettingsDir(env: Env): string | undefined {
  return env.VERBATIM_MANAGED_SETTINGS_DIR || MANAGED_DIRS[process.platform];
}

/** The files, lowest precedence first (see the module's comment). */
export function settingsFileSpecs(env: Env, cwd: string): SettingsFileSpec[] {
  const home = homeDir(env);
  const claudeHome = env.CLAUDE_CONFIG_DIR || join(home, ".claude");
  const verbatimUser = join(userConfigFolder(env), "config.json");
  const specs: SettingsFileSpec[] = [
    {
      path: join(claudeHome, "settings.json"),
      scope: "user",
      origin: "claude",
      roots: [home, claudeHome],
      anchor: claudeHome,
    },
    {
      path: verbatimUser,
      scope: "user",
      origin: "verbatim",
      roots: [dirname(dirname(verbatimUser))],
      anchor: dirname(verbatimUser),
    },
    { path: join(cwd, ".claude", "settings.json"), scope: "project", origin: "claude", roots: [cwd], anchor: cwd },
    { path: join(cwd, ".verbatim", "config.json"), scope: "project", origin: "verbatim", roots: [cwd], anchor: cwd },
    { path: join(cwd, ".claude", "settings.local.json"), scope: "local", origin: "claude", roots: [cwd], anchor: cwd },
  ];
  const managed = managedSettingsDir(env);
  if (managed) {
    const managedFile = (path: string): SettingsFileSpec => ({
      path,
      scope: "managed",
      origin: "claude",
      roots: [managed],
      anchor: managed,
    });
    specs.push(managedFile(join(managed, "managed-settings.json")));
    for (const name of dropIns(join(managed, "managed-settings.d"))) specs.push(managedFile(name));
  }
  return specs;
}

/** `managed-settings.d/*.json`, in name order. */
function dropIns(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/** The settings files that exist, each read (or why it could not be), lowest precedence first. */
export function readSettingsFiles(env: Env, cwd: string): SettingsFile[] {
  const files: SettingsFile[] = [];
  for (const spec of settingsFileSpecs(env, cwd)) {
    const file = readOwnFile(spec.path, spec.roots, { maxBytes: MAX_SETTINGS_BYTES });
    if (file.state === "missing") continue;
    if (file.state === "skipped") {
      files.push({ ...spec, state: "unread", reason: file.skipped.reason });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(file.text);
    } catch (error) {
      files.push({ ...spec, state: "unread", reason: `it is not valid JSON (${(error as Error).message})` });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      files.push({ ...spec, state: "unread", reason: "it does not hold a JSON object" });
      continue;
    }
    files.push({ ...spec, state: "ok", value: value as Record<string, unknown>, sha256: sha256Hex(file.text) });
  }
  return files;
}
