/**
 * A rewind's optional file restore: the workspace files verbatim's own Write, Edit and NotebookEdit calls
 * changed after the point go back to what they held then, from the contents the journal recorded
 * (each completed call's diff holds the whole file before and after). Only a file whose content now
 * is exactly what verbatim's last change left there is restored (a file verbatim created is
 * removed); any other is listed and left alone. Commands (Bash) are never undone: how many ran is
 * said. Every read, write and removal goes through the confinement module, inside the session's
 * roots. Changes a subagent made are in its own session and are not restored.
 */
import { lstatSync, unlinkSync } from "node:fs";
import type { FilesRestored, StoredFact } from "../../journal/facts/index.ts";
import { closeFile, openForRead, readBytes, writeWhole } from "../confinement/open-file.ts";
import { insideAny, PathError, realRoots, resolveReal } from "../confinement/resolve.ts";

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
    if (name !== "Write" && name !== "Edit" && name !== "NotebookEdit") return;
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
        const now = currentText(path, roots);
        if (now !== change.after) {
          done.leftAlone.push({
            path,
            reason: now === null ? "deleted since" : "changed since verbatim last edited it",
          });
        } else if (change.before === null) {
          removeFile(path, roots);
          done.removed.push(path);
        } else {
          writeWhole(path, change.before, roots);
          done.restored.push(path);
        }
      } catch (error) {
        done.leftAlone.push({ path, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    return done;
  }
}

/** The file's text now, or null when it does not exist. Read through the confinement module. */
function currentText(path: string, roots: readonly string[]): string | null {
  let file: ReturnType<typeof openForRead>;
  try {
    file = openForRead(path, roots);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    return readBytes(file, 0, file.size).toString("utf8");
  } finally {
    closeFile(file);
  }
}

/** Removes a regular file inside the roots (a link is never followed, nor removed). */
function removeFile(path: string, roots: readonly string[]): void {
  const real = resolveReal(path);
  if (!insideAny(real, realRoots(roots))) throw new PathError(`${path} leads outside the session's directories`);
  if (!lstatSync(real).isFile()) throw new PathError(`${path} is no longer a regular file`);
  unlinkSync(real);
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
