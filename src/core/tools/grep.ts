import { statSync } from "node:fs";
import { basename } from "node:path";
import { z } from "zod";
import { closeFile, openForRead, readBytes } from "../confinement/open-file.ts";
import { capText } from "./shell/output-buffer.ts";
import { confinedOr, isInside } from "./paths.ts";
import { fileTypes } from "./search/file-types.ts";
import { ignoreFileNotes, mtimes, rootOf, walkFiles, type Walked } from "./search/walk.ts";
import { failed, fenced, textContent, type Tool, type ToolContext, type ToolOutcome } from "./tool.ts";

const input = z.lazy(() => {
  const count = z.number().int().min(0);
  return z.object({
    pattern: z.string().min(1).describe("The regular expression to search for in file contents"),
    path: z
      .string()
      .optional()
      .describe("The absolute path of a file or directory to search in (defaults to the working directory)"),
    glob: z.string().optional().describe('Only search files matching this glob, e.g. "*.js" or "src/**/*.{ts,tsx}"'),
    type: z.string().optional().describe('Only search files of this type, e.g. "js", "py", "rust"'),
    output_mode: z
      .enum(["content", "files_with_matches", "count"])
      .optional()
      .describe(
        '"content" shows matching lines, "files_with_matches" (default) lists files, "count" counts matching lines per file',
      ),
    "-i": z.boolean().optional().describe("Case insensitive search"),
    "-n": z.boolean().optional().describe("Show line numbers (content mode; default true)"),
    "-A": count.optional().describe("Lines to show after each match (content mode)"),
    "-B": count.optional().describe("Lines to show before each match (content mode)"),
    "-C": count.optional().describe("Lines to show before and after each match (content mode)"),
    context: count.optional().describe("Same as -C"),
    head_limit: count.optional().describe("Return only the first N lines or entries (default 250; 0 for no limit)"),
    offset: count.optional().describe("Skip the first N lines or entries"),
    multiline: z.boolean().optional().describe("Let the pattern span lines (. matches newlines)"),
  });
});
type Input = z.infer<typeof input>;

const GREP_DEFAULT_HEAD_LIMIT = 250;
/** The most text one Grep returns to the model; past it the output is cut with a note. */
const GREP_MAX_CHARS = 30_000;
const MAX_LINE_CHARS = 500;
const MAX_FILE_BYTES = 20 * 1024 * 1024;

type FileMatches = { path: string; lines: string[]; matched: number[] };

/** Searches file contents with a regular expression, skipping what `.gitignore` excludes. */
export const grepTool: Tool<Input> = {
  name: "Grep",
  description:
    "Searches file contents with a regular expression (JavaScript syntax). Filter files with glob or type; output_mode " +
    '"files_with_matches" (default) lists files, "content" shows matching lines (with -n, -A, -B, -C), "count" counts per file. ' +
    `Results are limited by head_limit (default ${GREP_DEFAULT_HEAD_LIMIT}) and offset. Files ignored by .gitignore and binary files are skipped.`,
  input,
  kind: "search",
  access: "read",
  title: (i) =>
    `Search for ${JSON.stringify(i.pattern)}${i.path ? ` in ${i.path}` : ""}${i.glob ? ` (${i.glob})` : ""}`,
  locations: (i) => (i.path ? [{ path: i.path }] : []),
  async run(i, ctx) {
    const confined = confinedOr(i.path ?? ctx.cwd, ctx.roots, failed);
    if ("refused" in confined) return confined.refused;
    const base = confined.path;
    let regex: RegExp;
    try {
      regex = new RegExp(i.pattern, `${i["-i"] ? "i" : ""}${i.multiline ? "gms" : ""}`);
    } catch (error) {
      return failed(
        `Invalid regular expression ${JSON.stringify(i.pattern)}: ${error instanceof Error ? error.message : String(error)}. Use JavaScript regular expression syntax.`,
      );
    }
    if (i.type && !fileTypes[i.type]) {
      return failed(
        `Unknown file type "${i.type}". Known types: ${Object.keys(fileTypes).join(", ")}. Or use glob instead.`,
      );
    }
    const candidates = await candidatesFor(base, i, ctx);
    if (typeof candidates === "string") return failed(candidates);
    const found: FileMatches[] = [];
    for (const file of candidates.files) {
      if (ctx.signal.aborted) break;
      const matches = searchFile(file.path, regex, i.multiline === true, ctx.roots);
      if (matches) found.push(matches);
    }
    return grepOutcome(i, base, found, candidates);
  },
};

/** What the search found, as the model and the client are shown it: ordered, paged, headed and capped, with notes. */
async function grepOutcome(i: Input, base: string, found: FileMatches[], candidates: Walked): Promise<ToolOutcome> {
  const times = await mtimes(found.map((f) => f.path));
  const mode = i.output_mode ?? "files_with_matches";
  if (mode === "files_with_matches")
    found.sort((a, b) => (times.get(b.path) ?? 0) - (times.get(a.path) ?? 0) || (a.path < b.path ? -1 : 1));
  const entries =
    mode === "content"
      ? contentLines(found, i)
      : mode === "count"
        ? found.map((f) => `${f.path}:${f.matched.length}`)
        : found.map((f) => f.path);
  const offset = i.offset ?? 0;
  const limit = i.head_limit === 0 ? Infinity : (i.head_limit ?? GREP_DEFAULT_HEAD_LIMIT);
  const page = entries.slice(offset, offset + limit);
  const notes: string[] = [];
  if (entries.length > offset + page.length) {
    notes.push(
      `(Showing ${mode === "content" ? "lines" : "entries"} ${offset + 1}-${offset + page.length} of ${entries.length}; use offset or head_limit for more, or narrow the search.)`,
    );
  }
  if (candidates.truncated)
    notes.push("(The search stopped early: the directory has too many files; use a narrower path.)");
  notes.push(...ignoreFileNotes(candidates.skipped));
  const header =
    mode === "files_with_matches"
      ? `Found ${found.length} file${found.length === 1 ? "" : "s"}`
      : mode === "count"
        ? `${found.reduce((n, f) => n + f.matched.length, 0)} matching lines in ${found.length} files`
        : "";
  const body = capText(page.join("\n"), GREP_MAX_CHARS);
  if (body.truncated) notes.push(`(Output cut at ${GREP_MAX_CHARS} characters; narrow the search or use head_limit.)`);
  const text =
    found.length === 0
      ? `No matches for ${JSON.stringify(i.pattern)} in ${base}.`
      : [header, body.text, ...notes].filter((s) => s !== "").join("\n");
  return {
    status: "completed",
    content: [
      textContent(found.length === 0 ? text : [header, fenced(body.text), ...notes].filter((s) => s !== "").join("\n")),
    ],
    rawOutput: { files: found.length, entries: entries.length, truncated: notes.length > 0 },
    result: { text, isError: false },
  };
}

async function candidatesFor(base: string, i: Input, ctx: ToolContext): Promise<Walked | string> {
  let isDir: boolean;
  try {
    isDir = statSync(base).isDirectory();
  } catch {
    return `${base} does not exist. Give an existing file or directory as path.`;
  }
  const walked = isDir
    ? await walkFiles(rootOf(base, ctx.roots), base, ctx.roots, ctx.signal)
    : { files: [{ path: base, rel: basename(base), symlink: false }], truncated: false, skipped: [] };
  const include = i.glob ? globFilter(i.glob) : () => true;
  const typed = i.type ? anyGlob(fileTypes[i.type] ?? []) : () => true;
  const files = walked.files.filter((f) => {
    if (!include(f.rel) || !typed(f.rel) || ctx.hidden?.(f.path)) return false;
    if (!f.symlink) return true;
    // A link is searched only when it leads to a file inside the session's directories.
    return isInside(f.path, ctx.roots);
  });
  return { files, truncated: walked.truncated, skipped: walked.skipped };
}

/** ripgrep's --glob: a pattern without "/" matches file names; a leading "!" excludes. */
function globFilter(pattern: string): (rel: string) => boolean {
  const negate = pattern.startsWith("!");
  const body = negate ? pattern.slice(1) : pattern;
  const glob = new Bun.Glob(body);
  const onName = !body.includes("/");
  return (rel) => glob.match(onName ? rel.slice(rel.lastIndexOf("/") + 1) : rel) !== negate;
}

const anyGlob = (patterns: string[]) => {
  const globs = patterns.map((p) => new Bun.Glob(p));
  return (rel: string) => globs.some((g) => g.match(rel.slice(rel.lastIndexOf("/") + 1)));
};

/** A file's matches; a file that is not a regular file inside the roots, or is too large, is skipped. */
function searchFile(
  path: string,
  regex: RegExp,
  multiline: boolean,
  roots: readonly string[],
): FileMatches | undefined {
  let bytes: Buffer;
  try {
    const file = openForRead(path, roots);
    try {
      if (file.size > MAX_FILE_BYTES) return undefined;
      bytes = readBytes(file, 0, file.size + 1);
    } finally {
      closeFile(file);
    }
  } catch {
    return undefined;
  }
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  const text = bytes.toString("utf8");
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const matched = new Set<number>();
  if (multiline) {
    const starts = lineStarts(text);
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m; m = regex.exec(text)) {
      const first = lineAt(starts, m.index);
      const last = lineAt(starts, m.index + Math.max(0, m[0].length - 1));
      for (let n = first; n <= last; n++) matched.add(n);
      if (m[0].length === 0) regex.lastIndex++;
    }
  } else {
    lines.forEach((line, n) => {
      if (regex.test(line)) matched.add(n);
    });
  }
  if (matched.size === 0) return undefined;
  return { path, lines, matched: [...matched].sort((a, b) => a - b) };
}

const lineStarts = (text: string) => {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
};

function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Matching lines with their context, ripgrep style: `path:n:line`, context `path-n-line`, groups split by `--`. */
function contentLines(found: FileMatches[], i: Input): string[] {
  const around = i["-C"] ?? i.context ?? 0;
  const before = i["-B"] ?? around;
  const after = i["-A"] ?? around;
  const numbers = i["-n"] ?? true;
  const out: string[] = [];
  for (const file of found) {
    const matched = new Set(file.matched);
    let last = -2;
    for (const n of file.matched) {
      const from = Math.max(0, n - before, last + 1);
      const to = Math.min(file.lines.length - 1, n + after);
      if ((before > 0 || after > 0) && out.length > 0 && from > last + 1) out.push("--");
      for (let k = from; k <= to; k++) {
        const sep = matched.has(k) ? ":" : "-";
        const line = file.lines[k]!;
        const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
        out.push(numbers ? `${file.path}${sep}${k + 1}${sep}${shown}` : `${file.path}${sep}${shown}`);
      }
      last = Math.max(last, to);
    }
  }
  return out;
}
