/**
 * How the context facts are shown: a compact notice saying what the model was given (the
 * instruction files with their sizes and hashes; the skills, commands and subagents offered), and
 * one for each instruction file loaded on demand. Pure: the same on every projection.
 */
import type { ContextSource, FactOf, OfferedItem } from "../journal/facts/index.ts";

export type ContextNotice = { severity: "info"; title: string; description?: string };

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** `12.3 KB`, `512 B`. */
function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

export function sourceLine(source: ContextSource): string {
  return `${source.path} (${source.scope}, ${size(source.bytes)}, sha256 ${source.sha256.slice(0, 12)})`;
}

function offeredLine(kind: string, item: OfferedItem): string {
  return `${kind} ${item.name} (${item.scope}): ${item.path}`;
}

/** An instruction file a `claudeMdExcludes` pattern kept out. */
export function excludedLine(e: { path: string; pattern: string }): string {
  return `excluded ${e.path} (claudeMdExcludes: ${e.pattern})`;
}

/** The notice of a `context_given` fact. */
export function contextGivenNotice(fact: FactOf<"context_given">): ContextNotice {
  const bytes = fact.sources.reduce((sum, s) => sum + s.bytes, 0);
  const parts = [`${plural(fact.sources.length, "instruction file")} (${size(bytes)})`];
  if (fact.skills.length) parts.push(plural(fact.skills.length, "skill"));
  if (fact.commands.length) parts.push(plural(fact.commands.length, "command"));
  if (fact.agents.length) parts.push(plural(fact.agents.length, "agent"));
  const excluded = fact.excluded ?? [];
  if (excluded.length) parts.push(`${plural(excluded.length, "instruction file")} excluded`);
  const lines = [
    ...fact.sources.map(sourceLine),
    ...fact.skills.map((s) => offeredLine("skill", s)),
    ...fact.commands.map((c) => offeredLine("command", c)),
    ...fact.agents.map((a) => offeredLine("agent", a)),
    ...excluded.map(excludedLine),
  ];
  return {
    severity: "info",
    title: `Context: ${parts.join(", ")}`,
    ...(lines.length ? { description: lines.join("\n") } : {}),
  };
}

/** The notice of an `instructions_loaded` fact. */
export function instructionsLoadedNotice(fact: FactOf<"instructions_loaded">): ContextNotice {
  return { severity: "info", title: `Context: loaded ${sourceLine(fact.source)}` };
}

/** What `_meta.verbatim.context` carries for a `context_given` fact: the fact's lists as recorded. */
export function contextMeta(fact: FactOf<"context_given">): Record<string, unknown> {
  return {
    sources: fact.sources,
    skills: fact.skills,
    commands: fact.commands,
    agents: fact.agents,
    ...(fact.excluded ? { excluded: fact.excluded } : {}),
  };
}

/** The notice of a `command_activated` fact: what the command or skill changed for the rest of its turn. */
export function commandActivatedNotice(fact: FactOf<"command_activated">): ContextNotice {
  const lines = [
    ...fact.allow.map((rule) => `allows ${rule} without asking`),
    ...fact.deny.map((rule) => `refuses ${rule}`),
    ...(fact.model ? [`uses the model ${fact.model.provider}/${fact.model.model}`] : []),
    ...(fact.effort ? [`thinks at the level ${fact.effort}`] : []),
    ...Object.keys(fact.hooks ?? {}).map((event) => `runs its ${event} hooks from now on in this session`),
    ...(fact.withheld ?? []),
  ];
  return {
    severity: "info",
    title: `/${fact.name} acts for the rest of this turn (${fact.path})`,
    ...(lines.length ? { description: lines.join("\n") } : {}),
  };
}
