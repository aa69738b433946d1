/**
 * A rewind's optional file restore: the workspace files verbatim's own Write and Edit calls
 * changed after the point go back to what they held then, from the contents the journal recorded
 * (each completed call's diff holds the whole file before and after). Only a file whose content now
 * is exactly what verbatim's last change left there is restored (a file verbatim created is
 * removed); any other is listed and left alone, and so is a file that is now a link. The file is
 * read, compared and then written or removed as one entry of its opened folder, never through a
 * link (confinement/folder-entry.ts). Commands (Bash) are never undone: how many ran is
 * said. Every read, write and removal goes through the confinement module, inside the session's
 * roots. Changes a subagent made are in its own session and are not restored.
 */
import { closeSync, constants, ftruncateSync, readSync, writeSync } from "node:fs";
import type { FilesRestored, StoredFact } from "../../journal/facts/index.ts";
import { closeEntry, type FolderEntry, openEntry, openEntryFile, removeEntry } from "../confinement/folder-entry.ts";

const { O_RDONLY, O_RDWR } = constants;

/** A file verbatim changed after the point: what it held before the first change, and what the last left. */
type Change = { before: string | null; after: string };

/** Gathers, from the records after a point (in order), what verbatim's own edits changed and how many commands ran. */
export class FileChanges {
  readonly #names = new Map<string, string>();
  readonly #changes = new Map<string, Change>();
  readonly #earlierRestores = new Set<string>();
  commandsRun = 0;

  push({ fact }: StoredFact): void {
    if (fact.kind === "tool_call_announced") this.#names.set(fact.toolCallId, fact.name);
    if (fact.kind === "tool_call_started" && this.#names.get(fact.toolCallId) === "Bash") this.commandsRun++;
    if (fact.kind === "session_rewound" && fact.files)
      for (const path of [...fact.files.restored, ...fact.files.removed]) this.#earlierRestores.add(path);
    if (fact.kind !== "tool_call_finished" || fact.status !== "completed") return;
    const name = this.#names.get(fact.toolCallId);
    if (name !== "Write" && name !== "Edit") return;
    for (const content of fact.content) {
      if (content.type !== "diff") continue;
      const earlier = this.#changes.get(content.path);
      this.#changes.set(content.path, {
        before: earlier ? earlier.before : (content.oldText ?? null),
        after: content.newText,
      });
    }
  }

  /** Restores what can be restored (see the module's comment); never throws for one file. */
  restore(roots: readonly string[]): FilesRestored {
    const done: FilesRestored = { restored: [], removed: [], leftAlone: [], commandsRun: this.commandsRun };
    for (const [path, change] of [...this.#changes].sort(([a], [b]) => a.localeCompare(b))) {
      if (this.#earlierRestores.has(path)) {
        done.leftAlone.push({ path, reason: "an earlier rewind restored it" });
        continue;
      }
      try {
        const outcome = restoreOne(path, change, roots);
        if (outcome === "removed" || outcome === "restored") done[outcome].push(path);
        else done.leftAlone.push({ path, reason: outcome });
      } catch (error) {
        done.leftAlone.push({ path, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    return done;
  }
}

/**
 * Puts one file back, acting only on the entry of its open folder that was read and compared
 * (confinement/folder-entry.ts): never through a link, never on a file put in its place. Returns
 * what was done, or why the file was left alone.
 */
function restoreOne(path: string, change: Change, roots: readonly string[]): "removed" | "restored" | string {
  let entry: FolderEntry;
  try {
    entry = openEntry(path, roots);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "deleted since";
    throw error;
  }
  try {
    let file: ReturnType<typeof openEntryFile>;
    try {
      file = openEntryFile(entry, change.before === null ? O_RDONLY : O_RDWR);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return "deleted since";
      throw error;
    }
    try {
      const now = readWhole(file.fd, file.size);
      if (now !== change.after) return "changed since verbatim last edited it";
      if (change.before === null) {
        removeEntry(entry, file);
        return "removed";
      }
      writeAll(file.fd, change.before);
      return "restored";
    } finally {
      closeSync(file.fd);
    }
  } finally {
    closeEntry(entry);
  }
}

function readWhole(fd: number, size: number): string {
  const buffer = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buffer, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return buffer.subarray(0, got).toString("utf8");
}

function writeAll(fd: number, text: string): void {
  ftruncateSync(fd, 0);
  const bytes = Buffer.from(text, "utf8");
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, written);
}

/** The line a client is shown of a restore. */
export function restoreLine(files: FilesRestored): { title: string; description: string } {
  const parts = [
    files.restored.length > 0 ? `restored ${files.restored.join(", ")}` : "",
    files.removed.length > 0 ? `removed ${files.removed.join(", ")} (created after that point)` : "",
    ...files.leftAlone.map((f) => `left ${f.path} alone (${f.reason})`),
  ].filter((p) => p !== "");
  const commands =
    files.commandsRun === 0
      ? "No command ran after that point."
      : `${files.commandsRun} command${files.commandsRun === 1 ? "" : "s"} ran after that point: what ${files.commandsRun === 1 ? "it" : "they"} changed is not undone.`;
  const edits = parts.length === 0 ? "No file verbatim edited after that point." : `Files: ${parts.join("; ")}.`;
  return { title: "Rewound files", description: `${edits} ${commands}` };
}
