/**
 * Loading verbatim's config files. The user file (`$XDG_CONFIG_HOME/verbatim/config.json`,
 * default `~/.config/verbatim/config.json`) and the project file (`.verbatim/config.json` in the
 * directory verbatim runs in) are each validated whole, then merged: the project's values win,
 * objects merge key by key, anything else is replaced. The environment wins over both; that is
 * applied by each section's reader (e.g. the provider catalog), not here.
 */
import { dirname, join } from "node:path";
import { readOwnFile } from "../confinement/own-files.ts";
import type { z } from "zod";
import { userConfigFolder } from "../../shared/user-config-folder.ts";
import { mergedSettingsSchema, settingsSchema, type Settings } from "./settings-schema.ts";

export type SettingsFiles = { user: string; project: string };

export type LoadedSettings =
  | { ok: true; settings: Settings; files: string[]; warnings: string[] }
  | { ok: false; error: string };

/**
 * Provider keys that decide where requests go and with which credentials. From a project file
 * they are honoured only in a trusted workspace: a repository must not be able to send the
 * user's key, or their prompts, to a server of its choosing.
 */
const UNTRUSTED_PROVIDER_KEYS = ["baseUrl", "apiKey", "apiKeyEnv", "headers"] as const;

/** Where the config files are for this environment and working directory. */
export function settingsFiles(env: Record<string, string | undefined>, cwd: string): SettingsFiles {
  return { user: join(userConfigFolder(env), "config.json"), project: join(cwd, ".verbatim", "config.json") };
}

/**
 * Reads and validates both files. A missing file is empty settings; an unreadable, malformed or
 * invalid file is an error naming the file, the key and what was expected there.
 */
export function loadSettings(
  files: SettingsFiles,
  options: { trustProject: boolean } = { trustProject: true },
): LoadedSettings {
  const warnings: string[] = [];
  // Each file is read only inside its own root: the config home for the user's, the project for its own.
  const user = readUserSettingsFile(files.user, warnings);
  if (!user.ok) return user;
  const project = readSettingsFile(files.project, [dirname(dirname(files.project))], warnings);
  if (!project.ok) return project;
  if (project.settings && !options.trustProject) {
    project.settings = withoutUntrustedKeys(project.settings, files.project, warnings);
  }
  const merged = mergeSettings(user.settings ?? {}, project.settings ?? {});
  const checked = mergedSettingsSchema.safeParse(merged);
  if (!checked.success) {
    const where = (path: PropertyKey[]) =>
      [[files.user, user.settings], [files.project, project.settings] as const]
        .filter(([, s]) => s !== undefined && mentions(s, path.slice(0, 2)))
        .map(([file]) => file)
        .join(" and ");
    return {
      ok: false,
      error: checked.error.issues.map((issue) => describeIssue(where(issue.path) || files.user, issue)).join("\n"),
    };
  }
  return {
    ok: true,
    settings: checked.data,
    files: [user.settings ? files.user : undefined, project.settings ? files.project : undefined].filter(
      (f) => f !== undefined,
    ),
    warnings,
  };
}

/** A project file's settings less what only a trusted workspace may set, each dropped key reported. */
function withoutUntrustedKeys(settings: Settings, file: string, warnings: string[]): Settings {
  const providers: NonNullable<Settings["providers"]> = {};
  for (const [name, provider] of Object.entries(settings.providers ?? {})) {
    const kept = { ...provider };
    for (const key of UNTRUSTED_PROVIDER_KEYS) {
      if (kept[key] === undefined) continue;
      delete kept[key];
      warnings.push(`${file}: providers.${name}.${key} was ignored because this workspace is not trusted`);
    }
    providers[name] = kept;
  }
  for (const key of ["trustedFolders", "notify", "journal"] as const) {
    if (settings[key] !== undefined)
      warnings.push(`${file}: ${key} is read from the user config only, so it was ignored`);
  }
  const { trustedFolders: _folders, notify: _notify, journal: _journal, ...rest } = settings;
  return settings.providers ? { ...rest, providers } : rest;
}

type FileResult = { ok: true; settings: Settings | undefined } | { ok: false; error: string };

/** The most a config file may hold; a larger one is not read. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/** Reads the user's own config file, confined to the user's config directory (the file's grandparent). */
export function readUserSettingsFile(path: string, warnings: string[] = []): FileResult {
  return readSettingsFile(path, [dirname(dirname(path))], warnings);
}

/**
 * One config file, read only when it resolves inside `roots` as a regular file of at most
 * MAX_SETTINGS_BYTES; otherwise it counts as absent and why goes to `warnings`.
 */
export function readSettingsFile(path: string, roots: readonly string[], warnings: string[]): FileResult {
  const file = readOwnFile(path, roots, { maxBytes: MAX_SETTINGS_BYTES });
  if (file.state === "missing") return { ok: true, settings: undefined };
  if (file.state === "skipped") {
    warnings.push(`${path} was not read: ${file.skipped.reason}`);
    return { ok: true, settings: undefined };
  }
  const text = file.text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: `${path}: is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const parsed = settingsSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: describeIssues(path, parsed.error) };
  return { ok: true, settings: parsed.data };
}

/** One line per problem: `file: key.path: what was expected`. */
export function describeIssues(where: string, error: z.ZodError): string {
  return error.issues.map((issue) => describeIssue(where, issue)).join("\n");
}

const describeIssue = (where: string, issue: z.core.$ZodIssue) =>
  `${where}: ${issue.path.length ? issue.path.map(String).join(".") : "(top level)"}: ${issue.message}`;

/** Whether a file's settings set the value at `path`. */
function mentions(value: unknown, path: PropertyKey[]): boolean {
  let here = value;
  for (const key of path) {
    if (!isPlainObject(here) || typeof key === "symbol" || !(String(key) in here)) return false;
    here = here[String(key)];
  }
  return true;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `over` wins: objects merge key by key, anything else is replaced. */
function mergeSettings<T extends Record<string, unknown>>(base: T, over: T): T {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergeSettings(current, value) : value;
  }
  return out as T;
}
