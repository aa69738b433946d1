/**
 * A call as the permission rules see it (rules/rule-set.ts): the paths it reads and writes (each
 * with where its links lead: a deny holds when either name matches, an allow needs both), the
 * commands of its command line, the host it fetches. Built by the gate when it decides; the rules
 * themselves come from facts.
 */
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { isInside } from "../tools/paths.ts";
import type { Tool } from "../tools/tool.ts";
import { readCommandLine } from "./rules/shell-tree.ts";
import type { CallSubject, CommandReading } from "./rules/rule-set.ts";
import { strippedWords } from "./rules/command-match.ts";

const READS = new Set(["Read", "Grep", "Glob", "LSP"]);
const WRITES = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
/** Commands whose plain arguments are files they read: a `Read` deny on a file holds for them too. */
const FILE_READERS = new Set([
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "wc",
  "sort",
  "uniq",
  "diff",
  "strings",
  "xxd",
  "od",
  "base64",
  "nl",
  "cut",
  "grep",
  "rg",
  "sed",
  "awk",
  "source",
  ".",
  "cp",
  "tar",
  "zip",
  "gzip",
]);

type Where = { cwd: string; home: string; roots: readonly string[] };

/** The path and, when it is (or its folder is) a link, where it leads. */
export function namesOf(path: string): string[] {
  const names = [path];
  try {
    const real = realpathSync(path);
    if (real !== path) names.push(real);
  } catch {
    try {
      const folder = join(realpathSync(dirname(path)), basename(path));
      if (folder !== path) names.push(folder);
    } catch {
      // Nothing there yet: the name as given is all there is.
    }
  }
  return names;
}

const absolute = (path: string, where: Pick<Where, "cwd" | "home">) =>
  path === "~" || path.startsWith("~/")
    ? join(where.home, path.slice(1))
    : isAbsolute(path)
      ? resolve(path)
      : resolve(where.cwd, path);

export async function callSubject(tool: Tool, input: unknown, where: Where): Promise<CallSubject> {
  const fields = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const subject: CallSubject = { tool: tool.name, input, reads: [], writes: [] };
  const scope = tool.ruleScope?.(input);
  if (scope !== undefined) subject.scope = scope;
  const pathField = fields.file_path ?? fields.notebook_path ?? fields.path;
  const path =
    typeof pathField === "string" ? absolute(pathField, where) : READS.has(tool.name) ? where.cwd : undefined;
  if (path !== undefined && READS.has(tool.name)) subject.reads.push({ paths: namesOf(path) });
  if (path !== undefined && WRITES.has(tool.name)) subject.writes.push({ paths: namesOf(path) });
  if (tool.name === "WebFetch" && typeof fields.url === "string") {
    try {
      subject.host = new URL(fields.url).hostname;
    } catch {
      // Not a URL: the tool refuses it; only whole-tool rules apply.
    }
  }
  if (tool.name === "Bash" && typeof fields.command === "string") {
    const reading = await readCommandLine(fields.command);
    subject.command = reading;
    addCommandPaths(subject, reading, where);
  }
  return subject;
}

/** A command line's redirect targets (as writes) and the files its file-reading commands name (as reads). */
function addCommandPaths(subject: CallSubject, reading: CommandReading, where: Where): void {
  if ("unreadable" in reading) return;
  for (const target of reading.redirects) {
    if (target === "/dev/null") continue;
    const path = absolute(target, where);
    subject.writes.push({ paths: namesOf(path), byCommand: true, denyOnly: isInside(path, [...where.roots]) });
  }
  for (const part of reading.parts) {
    const words = strippedWords(part.words, "deny");
    if (!FILE_READERS.has(words[0] ?? "")) continue;
    for (const arg of words.slice(1)) {
      if (arg.startsWith("-") || arg === "") continue;
      subject.reads.push({ paths: namesOf(absolute(arg, where)), byCommand: true, denyOnly: true });
    }
  }
}
