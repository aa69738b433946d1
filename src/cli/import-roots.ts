/**
 * Where an imported session may work: the directory given with `--cwd`, or the one its records
 * say, checked as `session/new` checks a client's (absolute, without NUL bytes, of a usable
 * length). A path from the file is a file from elsewhere's say, so it must also hold no control
 * character (a tab, a newline, an escape): such a name is far likelier an attack on whoever reads
 * it in a terminal or a log than a checkout's directory.
 */
import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { directoryProblem } from "../acp/request-checks.ts";
import { quoted } from "../view/standing-permissions.ts";

// C0 controls (tab, newline and NUL included), DEL and C1 controls.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a directory the file names cannot be a session's (`it is ...`), or undefined when it can. */
export function recordedDirectoryProblem(dir: string): string | undefined {
  if (dir === "") return "it is empty";
  if (CONTROL.test(dir)) return "it holds a control character";
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
