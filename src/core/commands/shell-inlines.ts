/**
 * A command's `` !`cmd` `` inlines (agent-conventions §4.4): each runs before the prompt is sent,
 * and its output takes its place in the text the model reads (recorded as the invocation's
 * `modelText`, so a reload never runs it again). Only when the command's own `allowed-tools`
 * lets Bash run it (`Bash`, `Bash(*)`, or `Bash(prefix:*)` / `Bash(prefix*)` with a matching
 * start), for a project command only in a trusted workspace, and when its `shell:` is bash (the
 * default; verbatim runs no other, such as `powershell`); otherwise the text stays as written.
 */
import type { UserCommand } from "./command-files.ts";

/** Runs one inline's command (bash, in the working directory, with the model's scrubbed environment); its output. */
export type InlineRunner = (command: string) => Promise<string>;

const INLINE = /!`([^`\n]+)`/g;

/** Whether `allowedTools` lets Bash run `cmd`. */
export function bashAllows(allowedTools: readonly string[] | undefined, cmd: string): boolean {
  return (allowedTools ?? []).some((rule) => {
    const r = rule.trim();
    if (r === "Bash" || r === "Bash(*)") return true;
    const match = /^Bash\((.+?)(?::\*|\*)\)$/.exec(r) ?? /^Bash\((.+)\)$/.exec(r);
    if (!match?.[1]) return false;
    const exact = !/(?::\*|\*)\)$/.test(r);
    return exact ? cmd.trim() === match[1] : cmd.trim().startsWith(match[1]);
  });
}

/** The text with each permitted inline replaced by its command's output. */
export async function runInlines(
  text: string,
  command: UserCommand,
  trusted: boolean,
  run: InlineRunner | undefined,
): Promise<string> {
  if (!run || !text.includes("!`")) return text;
  if (command.scope === "project" && !trusted) return text;
  // `shell:` names what runs them; verbatim runs bash only, so another shell's inlines stay as written.
  if (command.shell !== undefined && command.shell !== "bash") return text;
  let out = "";
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const cmd = match[1] ?? "";
    out += text.slice(last, match.index);
    out += bashAllows(command.allowedTools, cmd) ? (await run(cmd)).trimEnd() : match[0];
    last = (match.index ?? 0) + match[0].length;
  }
  return out + text.slice(last);
}
