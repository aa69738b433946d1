/**
 * A command line read into its simple commands and redirections, the way the shell reads it, so
 * that every command of `a && b; c | d` is judged on its own. This reader knows words, quotes,
 * escapes, the separators `&&` `||` `;` `|` `|&` `&` and newline, and redirections; anything it
 * does not follow exactly (a subshell, `$(...)`, backquotes, a here-document, braces, process
 * substitution, an unfinished quote) makes the line unreadable, and an unreadable line is asked
 * about whole. Pure.
 */
import type { CommandReading } from "./rule-set.ts";

/** Lines longer than this are not read (Claude Code asks about them whole too). */
export const MAX_COMMAND_CHARS = 10_000;

const REDIRECT = /^(?:\d*|&)(?:>>?|>\||<(?!<))&?$/;

export function readCommandLine(line: string): CommandReading {
  if (line.length > MAX_COMMAND_CHARS) return { unreadable: `it is longer than ${MAX_COMMAND_CHARS} characters` };
  const parts: { words: string[] }[] = [];
  const redirects: string[] = [];
  let words: string[] = [];
  let word: string | undefined;
  let pendingRedirect: string | undefined;
  const endWord = () => {
    if (word === undefined) return;
    if (pendingRedirect !== undefined) {
      if (!pendingRedirect.endsWith("&") && !pendingRedirect.includes("<")) redirects.push(word);
      pendingRedirect = undefined;
    } else words.push(word);
    word = undefined;
  };
  const endCommand = (): string | undefined => {
    endWord();
    if (pendingRedirect !== undefined) return "a redirection has no target";
    if (words.length) parts.push({ words });
    words = [];
    return undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\") {
      if (i + 1 >= line.length) return { unreadable: "it ends in a backslash" };
      if (line[i + 1] === "\n") {
        i++;
        continue;
      }
      word = (word ?? "") + line[++i];
      continue;
    }
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return { unreadable: "a quote is not closed" };
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
      continue;
    }
    if (c === '"') {
      const read = doubleQuoted(line, i);
      if ("unreadable" in read) return read;
      word = (word ?? "") + read.text;
      i = read.end;
      continue;
    }
    if (c === "`" || c === "(" || c === ")" || c === "{" || c === "}") return { unreadable: `it uses "${c}"` };
    if (c === "$" && (line[i + 1] === "(" || line[i + 1] === "{" || line[i + 1] === "'"))
      return { unreadable: `it uses "$${line[i + 1]}"` };
    if (c === "#" && word === undefined) {
      const end = line.indexOf("\n", i);
      i = end === -1 ? line.length : end - 1;
      continue;
    }
    if (c === " " || c === "\t") {
      endWord();
      continue;
    }
    if (c === "\n" || c === ";" || c === "&" || c === "|") {
      if (c === "&" && line[i + 1] === ">") {
        endWord();
        pendingRedirect = line[i + 2] === ">" ? "&>>" : "&>";
        i += pendingRedirect.length - 1;
        continue;
      }
      const problem = endCommand();
      if (problem) return { unreadable: problem };
      if ((c === "&" || c === "|") && line[i + 1] === c) i++;
      else if (c === "|" && line[i + 1] === "&") i++;
      continue;
    }
    if (c === ">" || c === "<") {
      if (line[i + 1] === "<" || (c === "<" && line[i + 1] === "(") || (c === ">" && line[i + 1] === "("))
        return {
          unreadable: c === "<" ? "it uses a here-document or process substitution" : "it uses process substitution",
        };
      // A number right before (`2>`) is the descriptor, not a word.
      const descriptor = word !== undefined && /^\d+$/.test(word) ? word : "";
      if (descriptor) word = undefined;
      else endWord();
      let op = descriptor + c;
      while (line[i + 1] === ">" || line[i + 1] === "|" || line[i + 1] === "&") op += line[++i];
      if (!REDIRECT.test(op)) return { unreadable: `it uses the redirection "${op}"` };
      if (op.endsWith("&")) {
        // `2>&1`: a descriptor, not a file.
        const target = /^\s*(\d+|-)/.exec(line.slice(i + 1));
        if (!target) return { unreadable: `"${op}" is not followed by a descriptor` };
        i += target[0].length;
        continue;
      }
      pendingRedirect = op;
      continue;
    }
    word = (word ?? "") + c;
  }
  const problem = endCommand();
  if (problem) return { unreadable: problem };
  return { parts, redirects };
}

/** A double-quoted string from `start` (its opening quote): its text, and where it closes. */
function doubleQuoted(line: string, start: number): { text: string; end: number } | { unreadable: string } {
  let text = "";
  for (let i = start + 1; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') return { text, end: i };
    if (c === "`" || (c === "$" && (line[i + 1] === "(" || line[i + 1] === "{")))
      return { unreadable: "it runs a command inside a quoted string" };
    if (c === "\\" && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) {
      if (line[i + 1] !== "\n") text += line[i + 1];
      i++;
      continue;
    }
    text += c;
  }
  return { unreadable: "a quote is not closed" };
}
