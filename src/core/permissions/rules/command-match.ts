/**
 * `Bash(...)` patterns against one simple command, with Claude Code's wrappers and environment
 * assignments taken off first (agent-conventions §1.3, §1.5). Pure.
 *
 * - `*` is any run of characters, spaces included, anywhere; a trailing ` *` also matches nothing
 *   after a word boundary (`ls *` matches `ls` and `ls -la`, never `lsof`); `:*` at the very end is
 *   the older spelling of ` *`.
 * - Before matching: `timeout`, `time`, `nice`, `nohup`, `stdbuf`, `command`, `builtin`, `noglob`
 *   and a flagless `xargs` are taken off with their options; so are leading `NAME=value`
 *   assignments: for an allow only those that change nothing about what runs (`NODE_ENV=test`),
 *   for a deny or an ask every one (a deny is never dodged by an assignment).
 * - `watch`, `setsid`, `flock` and `find` with `-exec`/`-execdir`/`-ok`/`-delete` run other
 *   commands: no allow rule with a wildcard matches them (they are asked about).
 */

/** A command's words once the shell has read them (quotes removed), without redirections. */
export type SimpleCommand = { words: string[] };

const WRAPPERS = new Set(["timeout", "time", "nice", "nohup", "stdbuf", "command", "builtin", "noglob"]);
/** Wrappers whose first plain argument is theirs, not the command's: `timeout 30 cmd`. */
const TAKES_ARGUMENT = new Set(["timeout"]);
/** Options that take a separate value: `nice -n 10`, `timeout -s KILL`, `stdbuf -o L`. */
const OPTION_WITH_VALUE = new Set(["-n", "-s", "-k", "-o", "-e", "-i", "--signal", "--kill-after"]);
const RUNS_OTHERS = new Set(["watch", "setsid", "flock"]);
const FIND_RUNS = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete"]);
/** Variables that change which program runs or what it loads: never taken off for an allow. */
const UNSAFE_VARIABLE =
  /^(?:PATH|LD_\w*|DYLD_\w*|BASH_ENV|ENV|IFS|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|NODE_OPTIONS|PYTHON\w*|PERL\w*|RUBY\w*|GIT_\w*|HOME|CDPATH|GLOBIGNORE)$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

export type MatchFor = "allow" | "deny";

/** The words that are matched: the command without its leading assignments and wrappers. */
export function strippedWords(words: readonly string[], purpose: MatchFor): string[] {
  let rest = [...words];
  for (;;) {
    const assignment = ASSIGNMENT.exec(rest[0] ?? "");
    if (!assignment) break;
    if (purpose === "allow" && (UNSAFE_VARIABLE.test(assignment[1]!) || /[$`]/.test(assignment[2]!))) break;
    rest = rest.slice(1);
  }
  for (;;) {
    const head = rest[0];
    if (head === undefined) return rest;
    if (head === "xargs") {
      // Only a flagless xargs is transparent: with options it may run something else entirely.
      if (rest[1]?.startsWith("-")) return rest;
      rest = rest.slice(1);
      continue;
    }
    if (!WRAPPERS.has(head)) return rest;
    let i = 1;
    while (i < rest.length && rest[i]!.startsWith("-") && rest[i] !== "--") {
      i += OPTION_WITH_VALUE.has(rest[i]!) ? 2 : 1;
    }
    if (rest[i] === "--") i++;
    if (TAKES_ARGUMENT.has(head) && i < rest.length) i++;
    rest = rest.slice(i);
  }
}

/** Whether the command runs commands of its own (`watch`, `find -exec`), which no wildcard allow covers. */
export function runsOtherCommands(words: readonly string[]): boolean {
  const head = words[0];
  if (head === undefined) return false;
  if (RUNS_OTHERS.has(head)) return true;
  return head === "find" && words.some((w) => FIND_RUNS.has(w));
}

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/** The regular expression of a `Bash(...)` pattern, anchored at both ends. */
export function commandPatternRegExp(pattern: string): RegExp {
  let body = pattern.trim();
  if (body.endsWith(":*")) body = `${body.slice(0, -2)} *`;
  let tail = "";
  if (body.endsWith(" *")) {
    body = body.slice(0, -2);
    tail = "(?: [\\s\\S]*)?";
  }
  const source = body.split("*").map(escapeRegExp).join("[\\s\\S]*");
  return new RegExp(`^${source}${tail}$`);
}

/** Whether a `Bash(...)` pattern covers this simple command, for an allow or for a deny/ask. */
export function commandMatches(pattern: string, command: SimpleCommand, purpose: MatchFor): boolean {
  const words = strippedWords(command.words, purpose);
  if (words.length === 0) return false;
  const hasWildcard = pattern.includes("*");
  if (purpose === "allow" && hasWildcard && runsOtherCommands(words)) return false;
  return commandPatternRegExp(pattern).test(words.join(" "));
}

/**
 * The rule a user would write to allow this command from now on: its command and subcommand as a
 * prefix (`npm run test:*` for `npm run test -- --watch`, `git status:*`), or the exact command
 * when that is all there is, or when the command is an interpreter or a command runner whose
 * arguments decide what runs (`python x.py`, `bash -c ...`): a prefix would allow anything.
 */
export function suggestedCommandRule(command: SimpleCommand): string {
  const words = strippedWords(command.words, "allow");
  if (words.length === 0) return command.words.join(" ");
  const head = words[0]!;
  if (INTERPRETERS.has(head) || runsOtherCommands(words)) return words.join(" ");
  const runner = PACKAGE_RUNNERS.has(head) && RUN_WORDS.has(words[1] ?? "");
  const depth = runner ? 3 : words.length > 1 && !words[1]!.startsWith("-") ? 2 : 1;
  if (depth >= words.length) return words.join(" ");
  return `${words.slice(0, depth).join(" ")}:*`;
}

const PACKAGE_RUNNERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const RUN_WORDS = new Set(["run", "run-script", "exec", "x"]);
const INTERPRETERS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "fish",
  "python",
  "python3",
  "node",
  "deno",
  "ruby",
  "perl",
  "php",
  "eval",
  "exec",
  "env",
  "sudo",
  "npx",
  "bunx",
  "ssh",
  "xargs",
  "rm",
]);
