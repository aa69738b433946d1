/**
 * A slash command's or skill's arguments in its text (agent-conventions §4.3): `$ARGUMENTS` is the
 * whole, `$ARGUMENTS[N]` and `$N` the N-th, 0-based as since Claude Code 2.1.19 (`$0` is the
 * first). A text that uses none of them gets the arguments appended as `ARGUMENTS: …`.
 */

/** The arguments split as a shell would split words: spaces separate, quotes group. */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  for (const match of args.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? match[3] ?? ""));
  return words;
}

const PLACEHOLDER = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)(?!\d)/g;

/** The text with its arguments put in, or appended when it has no placeholder. */
export function substituteArguments(body: string, args: string): string {
  const words = splitArguments(args);
  let used = false;
  const text = body.replace(PLACEHOLDER, (_all, indexed: string | undefined, positional: string | undefined) => {
    used = true;
    const index = indexed ?? positional;
    return index === undefined ? args : (words[Number(index)] ?? "");
  });
  if (used) return text;
  return args ? `${body.trimEnd()}\n\nARGUMENTS: ${args}` : body;
}
