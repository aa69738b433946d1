/**
 * Workspace trust for project hooks. ACP has no trust signal, so verbatim keeps its own list:
 * `trustedFolders` in the user config file (never a project file: a repository cannot trust
 * itself). A workspace is trusted when it is, or is inside, a listed folder. `verbatim trust DIR`
 * adds to the list; `--trust` trusts every workspace for one headless process.
 */
import { existsSync, realpathSync } from "node:fs";
import { resolve, sep } from "node:path";
import { userConfigRoots } from "../confinement/own-files.ts";
import { writePrivateFile } from "../confinement/private-write.ts";
import { readJsonObject, userConfigPath, type Env } from "./config-files.ts";

/** The folder as the file system names it (symlinks resolved), or as given if it does not exist. */
function canonical(dir: string): string {
  const absolute = resolve(dir);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

export function trustedFolders(env: Env): string[] {
  const file = readJsonObject(userConfigPath(env), userConfigRoots(env));
  if (file.state !== "ok" || !Array.isArray(file.value.trustedFolders)) return [];
  return file.value.trustedFolders.filter((f): f is string => typeof f === "string" && f !== "");
}

/** Whether `cwd` is a trusted folder or inside one. */
export function isTrusted(env: Env, cwd: string): boolean {
  const dir = canonical(cwd);
  return trustedFolders(env).some((folder) => {
    const root = canonical(folder);
    return dir === root || dir.startsWith(root.endsWith(sep) ? root : root + sep);
  });
}

export type TrustResult = { folder: string; configPath: string; added: boolean };

/**
 * Adds `dir` to the trusted folders in the user config, keeping everything else in the file.
 * Refuses to touch a config file that is not valid JSON (it would be lost).
 */
export function trustFolder(env: Env, dir: string): TrustResult {
  const folder = canonical(dir);
  if (!existsSync(folder)) throw new Error(`${folder} does not exist`);
  const configPath = userConfigPath(env);
  const file = readJsonObject(configPath, userConfigRoots(env));
  if (file.state === "invalid")
    throw new Error(`${configPath} is not valid JSON (${file.error}); fix it first, nothing was changed`);
  if (file.state === "skipped") throw new Error(`${configPath} was not read (${file.reason}); nothing was changed`);
  const config = file.state === "ok" ? file.value : {};
  const folders = trustedFolders(env);
  if (folders.some((f) => canonical(f) === folder)) return { folder, configPath, added: false };
  const next = { ...config, trustedFolders: [...folders, folder] };
  // The file may hold provider keys: written private and whole, in a folder only the user can write.
  writePrivateFile(configPath, `${JSON.stringify(next, null, 2)}\n`);
  return { folder, configPath, added: true };
}
