/**
 * `Read(...)` and `Edit(...)` path patterns: gitignore-style globs anchored as Claude Code anchors
 * them (agent-conventions §1.4). Pure: every directory a pattern is anchored to comes from the
 * recorded settings fact.
 *
 * | pattern   | anchored at |
 * |-----------|-------------|
 * | `//p`     | the filesystem root |
 * | `~/p`     | the user's home |
 * | `/p`      | the settings file's own root (project root, `~/.claude`, ...) |
 * | `./p`     | the session's working directory |
 * | `p`       | the working directory; a name without `/` matches at any depth (`.env` = `**∕.env`); a deny or ask with a `/` also matches below any directory there |
 *
 * `*` matches within one path segment, `**` across segments, `?` one character; a pattern that
 * matches a directory covers everything inside it.
 */
import type { RuleDecision } from "./rule-text.ts";

/** The directories a file's patterns are anchored to, as recorded. */
export type PathAnchors = { cwd: string; home: string; source: string };

/** An anchor directory as a glob that matches only itself: its `*`, `?`, `[` and `\\` escaped. */
const literal = (dir: string) =>
  (dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir).replace(/[*?[\\]/g, "\\$&");

/** The pattern as an absolute glob: its anchor joined to it. */
export function absolutePattern(pattern: string, anchors: PathAnchors, decision: RuleDecision): string {
  if (pattern.startsWith("//")) return `/${pattern.slice(2)}`;
  if (pattern === "~" || pattern.startsWith("~/")) return `${literal(anchors.home)}${pattern.slice(1)}`;
  if (pattern.startsWith("/")) return `${literal(anchors.source)}${pattern}`;
  const cwd = literal(anchors.cwd);
  if (pattern.startsWith("./")) return `${cwd}/${pattern.slice(2)}`;
  const inner = pattern.replace(/\/+$/, "");
  // gitignore: a name with no slash matches at any depth; Claude Code also lets a deny or an ask
  // of `dir/**` hold for every `dir` below the working directory.
  if (!inner.includes("/") || decision !== "allow") return `${cwd}/**/${pattern}`;
  return `${cwd}/${pattern}`;
}

const SPECIAL = /[.+^${}()|\\]/;

/** The regular expression of an absolute glob; it also matches every path inside a match. */
export function globRegExp(pattern: string): RegExp {
  // `dir/**` covers the directory itself too: a search of it would find only what is covered.
  const glob = pattern.endsWith("/**") && pattern.length > 3 ? pattern.slice(0, -3) : pattern;
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "\\" && i + 1 < glob.length) {
      const next = glob[++i]!;
      source += SPECIAL.test(next) || "*?[]/".includes(next) ? `\\${next}` : next;
    } else if (c === "*") {
      if (glob[i + 1] === "*") {
        const slashAfter = glob[i + 2] === "/";
        const slashBefore = i === 0 || glob[i - 1] === "/";
        if (slashBefore && slashAfter) {
          source += "(?:[^/]*/)*";
          i += 2;
        } else {
          source += ".*";
          i += 1;
        }
      } else source += "[^/]*";
    } else if (c === "?") source += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end === -1) source += "\\[";
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
        source += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else source += SPECIAL.test(c) ? `\\${c}` : c;
  }
  source = source.replace(/\/+$/, "");
  return new RegExp(`^${source}(?:/.*)?$`, "s");
}

/** Whether `path` (absolute) is covered by the pattern as this decision reads it. */
export function pathMatches(pattern: string, path: string, anchors: PathAnchors, decision: RuleDecision): boolean {
  return globRegExp(absolutePattern(pattern, anchors, decision)).test(path);
}
