/**
 * Claude Code's `claudeMdExcludes` setting (agent-conventions §4.1): glob patterns of instruction
 * files a session does not read. The patterns of every settings file merge (as arrays do,
 * settings-files.ts); each is matched against a file's absolute path (`**` crosses folders).
 * Claude Code's managed `CLAUDE.md` cannot be excluded. Excluding only takes text away from the
 * model, so a project's patterns hold in any workspace, trusted or not.
 */
import { readSettingsFiles } from "../config/settings-files.ts";

type Env = Record<string, string | undefined>;

/** An instruction file not read because a pattern excludes it. */
export type Excluded = { path: string; pattern: string };

/** The `claudeMdExcludes` patterns of the settings files a session in `cwd` reads, in file order, each once. */
export function claudeMdExcludes(env: Env, cwd: string): string[] {
  const patterns: string[] = [];
  for (const file of readSettingsFiles(env, cwd)) {
    if (file.state !== "ok") continue;
    const value = file.value.claudeMdExcludes;
    if (!Array.isArray(value)) continue;
    for (const pattern of value) if (typeof pattern === "string" && !patterns.includes(pattern)) patterns.push(pattern);
  }
  return patterns;
}

/** The first of `patterns` that matches `path` (absolute), or undefined. */
export function excludingPattern(path: string, patterns: readonly string[]): string | undefined {
  return patterns.find((pattern) => pattern === path || new Bun.Glob(pattern).match(path));
}
