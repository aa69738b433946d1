/**
 * A command line read by the real shell parser (tree-sitter's bash grammar, src/lazy-sdks/
 * shell-parser.ts, loaded the first time a command is judged) into every simple command it runs
 * and the files its redirections write: `a && b; c | d`, subshells, `$(...)` and backquotes,
 * process substitutions, the bodies of `if`, `for`, `while` and functions. Each command's words
 * are as the shell reads them (quotes and escapes removed; expansions kept as written). A line
 * the parser cannot read (a syntax error, an unfinished quote), or one longer than 10,000
 * characters, is unreadable: it is asked about whole.
 */
import type { Node } from "../../../lazy-sdks/shell-parser.ts";
import type { CommandReading } from "./rule-set.ts";

/** Lines longer than this are not read (Claude Code asks about them whole too). */
export const MAX_COMMAND_CHARS = 10_000;

type Parser = Awaited<ReturnType<typeof import("../../../lazy-sdks/shell-parser.ts").bashParser>>;
let parser: Promise<Parser> | undefined;

/** The parser, loaded once per process; a failure to load is tried again next time. */
function loaded(): Promise<Parser> {
  parser ??= import("../../../lazy-sdks/shell-parser.ts").then((m) => m.bashParser());
  parser.catch(() => {
    parser = undefined;
  });
  return parser;
}

export async function readCommandLine(line: string): Promise<CommandReading> {
  if (line.length > MAX_COMMAND_CHARS) return { unreadable: `it is longer than ${MAX_COMMAND_CHARS} characters` };
  let shell: Parser;
  try {
    shell = await loaded();
  } catch (error) {
    return {
      unreadable: `the shell parser could not be loaded (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const tree = shell.parse(line);
  if (!tree) return { unreadable: "the shell parser could not read it" };
  try {
    const root = tree.rootNode;
    if (root.hasError || hasMissing(root)) return { unreadable: "it is not a command line the shell parser can read" };
    const parts: { words: string[] }[] = [];
    const redirects: string[] = [];
    collect(root, parts, redirects);
    return { parts, redirects };
  } finally {
    tree.delete();
  }
}

function hasMissing(node: Node): boolean {
  if (node.isMissing) return true;
  return node.children.some((child) => child !== null && hasMissing(child));
}

/** Every simple command and written redirection below `node`, in the order they appear. */
function collect(node: Node, parts: { words: string[] }[], redirects: string[]): void {
  if (node.type === "command") {
    const words: string[] = [];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "variable_assignment") words.push(child.text);
      else if (child.type === "command_name") words.push(wordOf(child));
      else if (!child.type.endsWith("redirect")) words.push(wordOf(child));
    }
    if (words.length) parts.push({ words });
  }
  if (node.type === "file_redirect") {
    const operator = node.children.find((c) => c && !c.isNamed)?.type ?? "";
    const destination = node.childForFieldName("destination");
    // `2>&1` and `<&0` duplicate a descriptor; `<` reads. Only `>`, `>>`, `>|`, `&>`, `&>>` write a file.
    if (destination && operator.includes(">") && !operator.endsWith("&")) redirects.push(wordOf(destination));
  }
  for (const child of node.namedChildren) if (child) collect(child, parts, redirects);
}

/** A word as the shell reads it: quotes taken off, escapes resolved, expansions as written. */
function wordOf(node: Node): string {
  switch (node.type) {
    case "command_name":
      return node.namedChildren[0] ? wordOf(node.namedChildren[0]) : node.text;
    case "raw_string":
      return node.text.slice(1, -1);
    case "ansi_c_string":
      return node.text.slice(2, -1);
    case "string":
      return node.text.slice(1, -1).replace(/\\([$`"\\\n])/g, "$1");
    case "concatenation":
      return node.namedChildren.map((c) => (c ? wordOf(c) : "")).join("");
    case "word":
      return node.text.replace(/\\(.)/gs, "$1");
    default:
      return node.text;
  }
}
