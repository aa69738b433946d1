/** What every session method checks of its parameters before any effect (typed -32602 errors). */
import { RequestError } from "@agentclientprotocol/sdk/unstable";
import { isAbsolute } from "node:path";
import { isValidSessionId } from "../core/ids.ts";

export function checkSessionId(sessionId: string): void {
  if (!isValidSessionId(sessionId)) {
    throw RequestError.invalidParams(
      { sessionId: sessionId.slice(0, 200) },
      "session ids contain only letters, digits, '_' and '-' (at most 128 characters)",
    );
  }
}

/** Longer than any path the system can open (Linux's PATH_MAX): refused rather than stored. */
const MAX_PATH_LENGTH = 4096;

/**
 * C0 controls (tab, newline and NUL included), DEL and C1 controls. A directory named with one is
 * far likelier an attack on whoever reads it in a terminal or a log than a checkout's directory.
 */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `dir` cannot be a session directory (absolute, without control characters, of a usable length), or undefined. */
export function directoryProblem(dir: string): string | undefined {
  if (!isAbsolute(dir)) return `directories must be absolute paths, got ${JSON.stringify(dir.slice(0, 200))}`;
  if (CONTROL_CHARACTER.test(dir))
    return `directory paths hold no control characters (a tab, a newline, an escape), got ${JSON.stringify(dir.slice(0, 200))}`;
  if (dir.length > MAX_PATH_LENGTH)
    return `directory paths are at most ${MAX_PATH_LENGTH} characters, got one of ${dir.length}`;
  return undefined;
}

/** `cwd` and `additionalDirectories` must be absolute paths, without control characters, of a usable length. */
export function checkDirectories(cwd: string, additional: string[]): void {
  for (const dir of [cwd, ...additional]) {
    const problem = directoryProblem(dir);
    if (problem) throw RequestError.invalidParams({ path: dir.slice(0, 500) }, problem);
  }
}
