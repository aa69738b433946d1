import { statSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { z } from "zod";
import { confinedOr } from "./paths.ts";
import { ignoreFileNotes, mtimes, rootOf, walkFiles } from "./search/walk.ts";
import { failed, fenced, textContent, type Tool } from "./tool.ts";

const input = z.lazy(() =>
  z.object({
    pattern: z
      .string()
      .min(1)
      .describe('The glob pattern to match files against, e.g. "**/*.ts" or "src/**/*.test.js"'),
    path: z
      .string()
      .optional()
      .describe("The absolute path of the directory to search in (defaults to the working directory)"),
  }),
);
type Input = z.infer<typeof input>;

/** The most paths one Glob returns. */
export const GLOB_MAX_RESULTS = 100;

/** Finds files by name pattern, newest first, skipping what `.gitignore` excludes. */
export const globTool: Tool<Input> = {
  name: "Glob",
  description:
    'Finds files by glob pattern ("**/*.ts", "src/**/*.{js,jsx}"), relative to path (absolute; defaults to the working directory). ' +
    `Returns absolute paths, most recently modified first, at most ${GLOB_MAX_RESULTS}. Files ignored by .gitignore are skipped.`,
  input,
  kind: "search",
  access: "read",
  title: (i) => `Find ${i.pattern}${i.path ? ` in ${i.path}` : ""}`,
  locations: (i) => (i.path ? [{ path: i.path }] : []),
  async run(i, ctx) {
    const confined = confinedOr(i.path ?? ctx.cwd, ctx.roots, failed);
    if ("refused" in confined) return confined.refused;
    const base = confined.path;
    if (!isDirectory(base)) return failed(`${base} is not a directory. Give a directory as path.`);
    let pattern = i.pattern;
    if (isAbsolute(pattern)) {
      const rel = relative(base, pattern);
      if (rel.startsWith(".."))
        return failed(`The pattern ${pattern} is outside ${base}. Give a pattern relative to path, like "**/*.ts".`);
      pattern = rel;
    }
    const glob = new Bun.Glob(pattern);
    const {
      files,
      truncated: walkCut,
      skipped,
    } = await walkFiles(rootOf(base, ctx.roots), base, ctx.roots, ctx.signal);
    const matched = files.filter((f) => glob.match(f.rel) && !ctx.hidden?.(f.path)).map((f) => f.path);
    const times = await mtimes(matched);
    matched.sort((a, b) => (times.get(b) ?? 0) - (times.get(a) ?? 0) || (a < b ? -1 : 1));
    const shown = matched.slice(0, GLOB_MAX_RESULTS);
    const notes = [
      ...(matched.length > shown.length
        ? [`(Showing ${shown.length} of ${matched.length} files; use a more specific pattern or path.)`]
        : []),
      ...(walkCut ? ["(The search stopped early: the directory has too many files; use a narrower path.)"] : []),
      ...ignoreFileNotes(skipped),
    ];
    const text = shown.length ? [shown.join("\n"), ...notes].join("\n") : `No files match ${i.pattern} in ${base}.`;
    return {
      status: "completed",
      content: [textContent(shown.length ? [fenced(shown.join("\n")), ...notes].join("\n") : text)],
      rawOutput: { count: matched.length, truncated: matched.length > shown.length || walkCut },
      result: { text, isError: false },
    };
  },
};

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
