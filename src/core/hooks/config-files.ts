/**
 * Where hook configuration lives, and reading those files. Claude Code's settings files and
 * verbatim's own config files all hold a `hooks` key of the same shape; every file that exists
 * contributes (merged, never overridden), in a fixed order that is also the handlers' order.
 *
 * Only files are read here: tests point HOME and XDG_CONFIG_HOME at a sandbox, so the real
 * `~/.claude` and `~/.config` are never touched by them.
 */
import { join } from "node:path";
import { readOwnFile } from "../confinement/own-files.ts";
import { homeDir } from "../../shared/home-dir.ts";
import { userConfigFolder } from "../../shared/user-config-folder.ts";
import type { HookSource } from "../../journal/facts/index.ts";

export type Env = Record<string, string | undefined>;

const home = (env: Env) => homeDir(env);

/** verbatim's user config file: hooks, trusted folders, the notify command. */
export const userConfigPath = (env: Env) => join(userConfigFolder(env), "config.json");

/**
 * The files hooks are read from, in order: Claude Code's user settings, verbatim's user config,
 * Claude Code's project settings, verbatim's project config, Claude Code's local settings.
 */
export function hookSourceFiles(env: Env, cwd: string): HookSource[] {
  return [
    { kind: "user", path: join(home(env), ".claude", "settings.json") },
    { kind: "user", path: userConfigPath(env) },
    { kind: "project", path: join(cwd, ".claude", "settings.json") },
    { kind: "project", path: join(cwd, ".verbatim", "config.json") },
    { kind: "local", path: join(cwd, ".claude", "settings.local.json") },
  ];
}

export type JsonFile =
  | { state: "missing" }
  | { state: "skipped"; reason: string }
  | { state: "invalid"; error: string }
  | { state: "ok"; value: Record<string, unknown> };

/** The most a settings file may hold; a larger one is not read. */
const MAX_JSON_BYTES = 1024 * 1024;

/**
 * A JSON object file: missing, not read (it leads outside `roots`, is not a regular file, or is
 * too large; with why), invalid (with why), or its value.
 */
export function readJsonObject(path: string, roots: readonly string[]): JsonFile {
  const file = readOwnFile(path, roots, { maxBytes: MAX_JSON_BYTES });
  if (file.state === "missing") return file;
  if (file.state === "skipped") return { state: "skipped", reason: file.skipped.reason };
  let value: unknown;
  try {
    value = JSON.parse(file.text);
  } catch (error) {
    return { state: "invalid", error: error instanceof Error ? error.message : String(error) };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { state: "invalid", error: "the file does not hold a JSON object" };
  }
  return { state: "ok", value: value as Record<string, unknown> };
}
