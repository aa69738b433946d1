/**
 * Where an imported session may work: the directory given with `--cwd`, or else the current one,
 * checked as `session/new` checks a client's (absolute, without control characters, of a usable
 * length), each problem said in the user's words. Never the directory the file records: a file
 * from elsewhere (recorded at `/`, say) does not choose what is inside this session's workspace.
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

/** The current directory, as an imported session's; throws an Error saying why (for the user) when it cannot be. */
export function currentDirectory(): string {
  let dir: string;
  try {
    dir = process.cwd();
  } catch {
    throw new Error("the current directory is gone: import from another, or with --cwd DIR");
  }
  const problem = recordedDirectoryProblem(dir);
  if (problem)
    throw new Error(
      `the current directory ${quoted(dir.slice(0, 200))} cannot be a session's directory (${problem}): import with --cwd DIR`,
    );
  return dir;
}

/** `--cwd DIR` made absolute; throws an Error saying why (for the user) unless it is a directory here. */
export function givenDirectory(given: string): string {
  const dir = resolve(given);
  if (directoryProblem(dir) !== undefined) throw new Error(`--cwd ${quoted(dir.slice(0, 200))}… is too long a path`);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`--cwd ${quoted(dir)} is not a directory`);
  return dir;
}
