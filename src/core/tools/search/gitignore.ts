/**
 * `.gitignore` rules: parsing and matching, as git defines them (gitignore(5)): blank lines and
 * `#` comments are skipped, `!` re-includes, a trailing `/` matches directories only, a pattern
 * with a `/` elsewhere is anchored to its file's directory, otherwise it matches a name at any
 * depth; `*`, `?`, `[...]` and `**` are globs. Within a file and across nested files the last
 * matching rule wins (deeper files come later).
 */
export type IgnoreRule = { base: string; regex: RegExp; negate: boolean; dirOnly: boolean; anchored: boolean };

/** The rules of one ignore file whose directory is `base` (relative to the search root, posix, "" = root). */
export function parseIgnore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith("/")) {
      dirOnly = true;
      line = line.slice(0, -1);
    }
    if (line === "") continue;
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    rules.push({ base, regex: new RegExp(`^${globToRegex(line)}$`), negate, dirOnly, anchored });
  }
  return rules;
}

/** Translates one gitignore glob to a regular expression source (without anchors). */
function globToRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const before = i === 0 || glob[i - 1] === "/";
        const after = glob[i + 2] === "/" || i + 2 === glob.length;
        if (before && after) {
          if (i + 2 === glob.length) {
            out += ".*";
            i += 1;
          } else {
            out += "(?:.*/)?";
            i += 2;
          }
          continue;
        }
      }
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) {
        out += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, end);
      if (body.startsWith("!")) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, "\\\\")}]`;
      i = end;
    } else if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegExp(glob[++i]!);
    } else {
      out += escapeRegExp(c);
    }
  }
  return out;
}

const escapeRegExp = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * Whether `path` (relative to the search root, posix) is ignored by `rules` (in precedence
 * order). Undefined when no rule matches it.
 */
export function ignoredBy(rules: readonly IgnoreRule[], path: string, isDir: boolean): boolean | undefined {
  let verdict: boolean | undefined;
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue;
    if (rule.base !== "" && !path.startsWith(`${rule.base}/`)) continue;
    const rel = rule.base === "" ? path : path.slice(rule.base.length + 1);
    const subject = rule.anchored ? rel : rel.slice(rel.lastIndexOf("/") + 1);
    if (rule.regex.test(subject)) verdict = !rule.negate;
  }
  return verdict;
}
