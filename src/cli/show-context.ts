/**
 * `verbatim show ID --context`: what the session's model was given, as recorded: the system
 * prompt's size, the instruction files it was built from (path, scope, size, hash), the skills,
 * commands and subagents offered, and each instruction file loaded on demand, in the order they
 * were recorded. Read from the journal only: never what the files say today.
 */
import type { StoredFact } from "../journal/facts/index.ts";
import { readRecords } from "../journal/store.ts";
import { excludedLine, sourceLine } from "../replay/context-notice.ts";
import { visible } from "../view/visible-text.ts";
import { onSession } from "./sessions.ts";

/** The lines `--context` prints for one record, or none. */
export function contextLines({ fact, at, seq }: StoredFact): string[] {
  const when = `#${seq} ${at}`;
  switch (fact.kind) {
    case "session_started":
      return [`${when} system prompt: ${fact.systemPrompt.length} characters, ${fact.tools.length} tools`];
    case "context_given":
      return [
        `${when} context given:`,
        ...fact.sources.map((s) => `  instructions ${sourceLine(s)}`),
        ...fact.skills.map((s) => `  skill /${s.name} (${s.scope}) ${s.path} sha256 ${s.sha256.slice(0, 12)}`),
        ...fact.commands.map((c) => `  command /${c.name} (${c.scope}) ${c.path} sha256 ${c.sha256.slice(0, 12)}`),
        ...fact.agents.map((a) => `  agent ${a.name} (${a.scope}) ${a.path} sha256 ${a.sha256.slice(0, 12)}`),
        ...(fact.excluded ?? []).map((e) => `  ${excludedLine(e)}`),
      ];
    case "instructions_loaded":
      return [`${when} loaded on demand (with call ${fact.toolCallId}): ${sourceLine(fact.source)}`];
    default:
      return [];
  }
}

export function showContext(sessionId: string): Promise<number> {
  return onSession(sessionId, async ({ store }) => {
    const lines: string[] = [];
    for await (const record of readRecords(store, sessionId)) lines.push(...contextLines(record));
    process.stdout.write(lines.map((line) => `${visible(line)}\n`).join(""));
    return 0;
  });
}
