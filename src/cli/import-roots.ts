/**
 * Where an imported session may work: the directory given with `--cwd`, or the one its records
 * say, checked as `session/new` checks a client's (absolute, without control characters, of a
 * usable length), each problem said in the user's words.
 */
import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { CONTROL_CHARACTER, directoryProblem } from "../acp/request-checks.ts";
import { quoted } from "../view/standing-permissions.ts";

/** Why a directory the file names cannot be a session's (`it is ...`), or undefined when it can. */
export function recordedDirectoryProblem(dir: string): string | undefined {
  if (dir === "") return "it is empty";
  if (CONTROL_CHARACTER.test(dir)) return "it holds a control character";
  if (directoryProblem(dir) === undefined) return undefined;
  return isAbsolute(dir) ? "it is longer than any path this system can open" : "it is not an absolute path";
}

/** `--cwd DIR` made absolute; throws an Error saying why (for the user) unless it is a directory here. */
export function givenDirectory(given: string): string {
  const dir = resolve(given);
  if (directoryProblem(dir) !== undefined) throw new Error(`--cwd ${quoted(dir.slice(0, 200))}… is too long a path`);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`--cwd ${quoted(dir)} is not a directory`);
  return dir;
}
