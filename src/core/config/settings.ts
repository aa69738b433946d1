/**
 * Loading verbatim's config files. The user file (`$XDG_CONFIG_HOME/verbatim/config.json`,
 * default `~/.config/verbatim/config.json`) and the project file (`.verbatim/config.json` in the
 * directory verbatim runs in) are each validated whole, then merged: the project's values win,
 * objects merge key by key, anything else is replaced. The environment wins over both; that is
 * applied by each section's reader (e.g. the provider catalog), not here.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { z } from "zod";
import { settingsSchema, type Settings } from "./settings-schema.ts";

export type SettingsFiles = { user: string; project: string };

export type LoadedSettings =
  | { ok: true; settings: Settings; files: string[] }
  | { ok: false; error: string };

/** Where the config files are for this environment and working directory. */
export function settingsFiles(env: Record<string, string | undefined>, cwd: string): SettingsFiles {
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return { user: join(configHome, "verbatim", "config.json"), project: join(cwd, ".verbatim", "config.json") };
}

/**
 * Reads and validates both files. A missing file is empty settings; an unreadable, malformed or
 * invalid file is an error naming the file, the key and what was expected there.
 */
export function loadSettings(files: SettingsFiles): LoadedSettings {
  const user = readSettingsFile(files.user);
  if (!user.ok) return user;
  const project = readSettingsFile(files.project);
  if (!project.ok) return project;
  const merged = mergeSettings(user.settings ?? {}, project.settings ?? {});
  const checked = settingsSchema.safeParse(merged);
  if (!checked.success) return { ok: false, error: describeIssues("the merged config files", checked.error) };
  return {
    ok: true,
    settings: checked.data,
    files: [user.settings ? files.user : undefined, project.settings ? files.project : undefined].filter((f) => f !== undefined),
  };
}

type FileResult = { ok: true; settings: Settings | undefined } | { ok: false; error: string };

export function readSettingsFile(path: string): FileResult {
  if (!existsSync(path)) return { ok: true, settings: undefined };
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return { ok: false, error: `${path}: cannot be read (${error instanceof Error ? error.message : String(error)})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${path}: is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = settingsSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: describeIssues(path, parsed.error) };
  return { ok: true, settings: parsed.data };
}

/** One line per problem: `file: key.path: what was expected`. */
export function describeIssues(where: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => `${where}: ${issue.path.length ? issue.path.map(String).join(".") : "(top level)"}: ${issue.message}`)
    .join("\n");
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `over` wins: objects merge key by key, anything else is replaced. */
export function mergeSettings<T extends Record<string, unknown>>(base: T, over: T): T {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergeSettings(current, value) : value;
  }
  return out as T;
}
