/**
 * "Always allow ... in this project": the rules go into the project's local settings file
 * (`.claude/settings.local.json`, where Claude Code keeps its "don't ask again" answers), merged
 * into `permissions.allow` with everything else in the file kept, written through the one
 * private-write path. A file that cannot be read or is not a JSON object is never overwritten.
 */
import { join } from "node:path";
import { readOwnFile } from "../confinement/own-files.ts";
import { writePrivateFile } from "../confinement/private-write.ts";

const MAX_BYTES = 1024 * 1024;

/** Adds `rules` to the local settings of the project in `cwd`; returns the file written. Throws why it could not. */
export function saveProjectRules(cwd: string, rules: readonly string[]): string {
  const path = join(cwd, ".claude", "settings.local.json");
  const file = readOwnFile(path, [cwd], { maxBytes: MAX_BYTES });
  if (file.state === "skipped") throw new Error(`${path} was not read (${file.skipped.reason})`);
  let settings: Record<string, unknown> = {};
  if (file.state === "ok") {
    const value: unknown = JSON.parse(file.text);
    if (!isObject(value)) throw new Error(`${path} does not hold a JSON object`);
    settings = value;
  }
  const permissions = isObject(settings.permissions) ? settings.permissions : {};
  if (settings.permissions !== undefined && !isObject(settings.permissions))
    throw new Error(`${path}: permissions is not an object`);
  const allow = Array.isArray(permissions.allow) ? permissions.allow : [];
  if (permissions.allow !== undefined && !Array.isArray(permissions.allow))
    throw new Error(`${path}: permissions.allow is not a list`);
  const next = {
    ...settings,
    permissions: { ...permissions, allow: [...allow, ...rules.filter((r) => !allow.includes(r))] },
  };
  writePrivateFile(path, `${JSON.stringify(next, null, 2)}\n`);
  return path;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
