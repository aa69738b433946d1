/**
 * A slash command's or skill's arguments in its text (agent-conventions §4.3): `$ARGUMENTS` is the
 * whole, `$ARGUMENTS[N]` and `$N` the N-th, 0-based as since Claude Code 2.1.19 (`$0` is the
 * first). A skill's `arguments` front matter names the positions: with `arguments: [file, mode]`,
 * `$file` is the first word and `$mode` the second (a name not listed stays as written). A text
 * that uses none of them gets the arguments appended as `ARGUMENTS: …`.
 */

/** The arguments split as a shell would split words: spaces separate, quotes group. */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  for (const match of args.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? match[3] ?? ""));
  return words;
}

const PLACEHOLDER = String.raw`\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS(?![A-Za-z0-9_])|\$(\d+)(?!\d)`;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The text with its arguments put in, or appended when it has no placeholder; `names` are the `arguments` front matter's. */
export function substituteArguments(body: string, args: string, names: readonly string[] = []): string {
  const words = splitArguments(args);
  const named = names.filter((n) => NAME.test(n) && n !== "ARGUMENTS");
  // Longest first, so `$file_name` is not read as `$file` followed by `_name`.
  const alternation = [...named].sort((a, b) => b.length - a.length).join("|");
  const pattern = new RegExp(named.length ? `${PLACEHOLDER}|\\$(${alternation})(?![A-Za-z0-9_])` : PLACEHOLDER, "g");
  let used = false;
  const text = body.replace(
    pattern,
    (_all, indexed: string | undefined, positional: string | undefined, name: string | undefined) => {
      used = true;
      const index = name !== undefined && typeof name === "string" ? named.indexOf(name) : (indexed ?? positional);
      return index === undefined ? args : (words[Number(index)] ?? "");
    },
  );
  if (used) return text;
  return args ? `${body.trimEnd()}\n\nARGUMENTS: ${args}` : body;
}
