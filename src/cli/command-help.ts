/**
 * The command line's table, read: a command's shape (`CommandSpec`: name, summary, usage, options),
 * the global usage and each command's help drawn from it, its options given to node:util's
 * parser, and the command nearest a mistyped name. Nothing here loads a subcommand: the start
 * bundle holds this module, so it stays plain text and small functions.
 */

/** One option: how node:util parses it, and how help shows it. */
export type OptionSpec = {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** The value's name in help, for a string option ("DIR", "ID"). */
  arg?: string;
  help: string;
};

export type CommandSpec = {
  name: string;
  /** What it does, in one line of the global usage (wrapped there). */
  summary: string;
  /**
   * What follows `verbatim NAME` in the usage: the arguments and options; a line break starts a
   * line indented under the first (unindented here).
   */
  usage: string;
  /** More said by the command's own help, below its summary (paragraphs, already in lines). */
  details?: string;
  options: Record<string, OptionSpec>;
  /** How many positional arguments it takes, where `run` parses generically. */
  positionals?: { min: number; max: number };
  /** Runs the command on its arguments (everything after its name); resolves to the exit code. */
  run(args: string[]): Promise<number>;
};

const WIDTH = 100;
const COLUMN = 32;

/** `text` wrapped to lines no wider than WIDTH, each after `indent` spaces. */
export function wrap(text: string, indent: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${" ".repeat(indent)}${l}`);
}

/** `  verbatim NAME USAGE` then the summary at COLUMN: on the same line when the usage leaves room. */
export function usageEntry(invocation: string, summary: string): string {
  const head = `  ${invocation.split("\n").join("\n  ")}`;
  const body = wrap(summary, COLUMN);
  if (!head.includes("\n") && head.length < COLUMN - 1 && body[0])
    return [`${head.padEnd(COLUMN)}${body[0].trimStart()}`, ...body.slice(1)].join("\n");
  return [head, ...body].join("\n");
}

/** `verbatim NAME USAGE`, after `lead` (the usage's continuation lines aligned under its first). */
export function invocation(spec: Pick<CommandSpec, "name" | "usage">, lead = ""): string {
  const head = `${lead}verbatim ${spec.name}`;
  if (!spec.usage) return head;
  return `${head} ${spec.usage.split("\n").join(`\n${" ".repeat(head.length + 1)}`)}`;
}

/** The usage a usage error ends with, and a command's help begins with. */
export const usageLine = (spec: Pick<CommandSpec, "name" | "usage">) => invocation(spec, "usage: ");

/** `verbatim NAME --help` and `verbatim help NAME`: the usage, the summary, the details, each option. */
export function commandHelp(spec: CommandSpec): string {
  const parts = [usageLine(spec), wrap(spec.summary, 0).join("\n")];
  if (spec.details) parts.push(spec.details.trimEnd());
  const options = Object.entries(spec.options);
  if (options.length > 0) {
    const rows = options.map(([name, o]) => {
      const flag = `${o.short ? `-${o.short}, ` : ""}--${name}${o.arg ? ` ${o.arg}` : ""}${o.multiple ? "..." : ""}`;
      return usageEntry(flag, o.help);
    });
    parts.push(`options:\n${rows.join("\n")}`);
  }
  return `${parts.join("\n\n")}\n`;
}

/** The options as node:util's parseArgs takes them (without the help's fields). */
export function parserOptions(spec: Pick<CommandSpec, "options">) {
  return Object.fromEntries(
    Object.entries(spec.options).map(([name, o]) => [
      name,
      { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) },
    ]),
  );
}

/** Whether the arguments ask for help: `--help` or `-h` before a `--`. */
export function asksHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/** The command whose name is nearest `typed` (at most a third of its letters off), if one is. */
export function nearestCommand(typed: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(typed.toLowerCase(), name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  if (!best) return undefined;
  const prefix = names.filter((n) => typed.length >= 2 && n.startsWith(typed.toLowerCase()));
  if (prefix.length === 1) return prefix[0];
  return best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

/** Levenshtein distance, with a swap of two neighbouring letters counted as one edit. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}
