/**
 * Claude Code's `CLAUDE_ENV_FILE`: a file SessionStart hooks append `export NAME=value` lines to,
 * which every later Bash command of the session sources first (a hook that activates a virtual
 * environment or sets a token this way). One file per session, private to the user, next to the
 * journal; it is never journaled, so what hooks put there (tokens included) stays out of it.
 */
import { rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { dataHome } from "../../journal/paths.ts";
import { ensurePrivateDir, ensurePrivateFile } from "../../journal/private-files.ts";
import type { Env } from "./config-files.ts";

/** Where a session's env file lives: `<data home>/env/<session id>.sh` (ids are validated: no traversal). */
const envFilePath = (env: Env, sessionId: string): string => join(dataHome(env), "env", `${sessionId}.sh`);

/** Creates the file (and its directory) private to the user, if missing, for hooks to append to. */
function prepareEnvFile(path: string): void {
  ensurePrivateDir(dirname(path));
  ensurePrivateFile(path);
}

/** True when hooks wrote something to the file. Never throws. */
function envFileHasContent(path: string): boolean {
  return (statSync(path, { throwIfNoEntry: false })?.size ?? 0) > 0;
}

/** Removes a deleted session's env file, if it has one. Never throws. */
export function removeEnvFile(env: Env, sessionId: string): void {
  rmSync(envFilePath(env, sessionId), { force: true });
}

/** One session's env file, made only once SessionStart hooks will run (a session without them leaves none behind). */
export class SessionEnvFile {
  #path: string | undefined;

  constructor(
    private readonly env: Env,
    private readonly sessionId: string,
  ) {}

  /** The file's path, the file created private (and empty) if missing: for SessionStart hooks to append to. */
  prepared(): string {
    this.#path ??= envFilePath(this.env, this.sessionId);
    prepareEnvFile(this.#path);
    return this.#path;
  }

  /** The file's path once hooks wrote something to it; undefined otherwise. */
  written(): string | undefined {
    return this.#path && envFileHasContent(this.#path) ? this.#path : undefined;
  }
}
