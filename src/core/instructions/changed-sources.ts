/**
 * Which of the files a session's model was given changed on disk since they were recorded: the
 * session goes on with what it recorded (its system prompt is a fact), and the user is told that
 * the change applies from the next session. Each file is read through the confinement module only
 * to hash it (its text goes nowhere), so any root will do: "/" on this system.
 */
import { parse } from "node:path";
import type { ContextSource, OfferedItem } from "../../journal/facts/index.ts";
import { sha256Hex } from "../../shared/sha256.ts";
import { readOwnFile } from "../confinement/own-files.ts";
import { MAX_INSTRUCTION_CHARS } from "./read-instructions.ts";

export type ChangedSource = { path: string; change: "changed" | "removed" };

/** The most bytes a skill, command or agent file is read with (command-files.ts, agent-files.ts). */
const MAX_OFFERED_FILE = 200_000;

/**
 * The recorded files whose text differs now, or that are gone: instruction files (read as they
 * were, up to their cap) and offered skills and agents (read whole, as they were).
 */
export function changedSources(recorded: {
  sources: readonly ContextSource[];
  offered: readonly OfferedItem[];
}): ChangedSource[] {
  const changed: ChangedSource[] = [];
  const all = [
    ...recorded.sources.map((s) => ({ s, maxBytes: MAX_INSTRUCTION_CHARS * 4 })),
    ...recorded.offered.map((s) => ({ s, maxBytes: MAX_OFFERED_FILE })),
  ];
  for (const { s: source, maxBytes } of all) {
    const read = readOwnFile(source.path, [parse(source.path).root], { maxBytes, truncate: true });
    if (read.state === "missing") changed.push({ path: source.path, change: "removed" });
    else if (read.state === "ok" && sha256Hex(read.text) !== source.sha256)
      changed.push({ path: source.path, change: "changed" });
  }
  return changed;
}
