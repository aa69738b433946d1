/**
 * What a rewind's file restore may undo, and undoing it. The workspace files verbatim's own Write,
 * Edit and NotebookEdit calls changed after the point go back to what they held then, from the contents the
 * journal recorded (each completed call's diff holds the whole file before and after).
 *
 * Only edits this user's verbatim made in this workspace are undone: those made while the last
 * lease holder the journal names before them (journal/facts/session.ts `session_held`, a start's
 * `holder`) is this machine and this session's directory, and after the last import (what an
 * export brought is history from elsewhere, whatever it says of itself). A file any other edit
 * touched after the point is listed and left alone, and so is every edit of a session recorded
 * before holders were named.
 *
 * Only a file whose content now is exactly what verbatim's last change left there is restored (a
 * file verbatim created is removed); any other is listed and left alone, and so is a file that is
 * now a link. The file is read, compared and then written or removed as one entry of its opened
 * folder, never through a link (confinement/folder-entry.ts). Commands (Bash) are never undone:
 * how many ran is said. Changes a subagent made are in its own session and are not restored.
 */
import { closeSync, constants, ftruncateSync, readSync, writeSync } from "node:fs";
import type { FilesRestored, FileToRestore, StoredFact } from "../../journal/facts/index.ts";
import type { Holder } from "../../replay/state-parts.ts";
import { closeEntry, type FolderEntry, openEntry, openEntryFile, removeEntry } from "../confinement/folder-entry.ts";

const { O_RDONLY, O_RDWR } = constants;

/** A file verbatim changed after the point: what it held before the first change, what the last left, and why it is not ours to undo (if it is not). */
type Change = { before: string | null; after: string; foreign?: string };

/** Where an edit is ours: made on `host`, in `cwd`. */
export type Here = { host: string; cwd: string };

export type LeftAlone = { path: string; reason: string };

/** Gathers, from the records after a point (in order), what verbatim's own edits changed and how many commands ran. */
export class FileChanges {
  readonly #names = new Map<string, string>();
  readonly #changes = new Map<string, Change>();
  readonly #earlierRestores = new Set<string>();
  commandsRun = 0;

  /** `holder`: the session's holder at the point (the last one the records up to it name), if any. */
  constructor(
    private readonly here: Here,
    private holder: Holder | undefined,
  ) {}

  /** Records taken back by an earlier rewind are pushed with `retracted`: they still say who wrote what follows. */
  push({ seq, fact }: StoredFact, retracted = false): void {
    if (fact.kind === "session_held") this.holder = { seq, host: fact.host, cwd: fact.cwd };
    if (fact.kind === "session_imported") {
      // What came before is the file's history, whatever its records say of who wrote them.
      this.holder = { seq, host: "", cwd: "" };
      for (const change of this.#changes.values()) change.foreign ??= "recorded before an import, left alone";
    }
    if (retracted) return;
    if (fact.kind === "tool_call_announced") this.#names.set(fact.toolCallId, fact.name);
    if (fact.kind === "tool_call_started" && this.#names.get(fact.toolCallId) === "Bash") this.commandsRun++;
    if (fact.kind === "session_rewound" && fact.files)
      for (const path of [...fact.files.restored, ...fact.files.removed]) this.#earlierRestores.add(path);
    if (fact.kind === "files_restore_ended")
      for (const path of [...fact.files.restored, ...fact.files.removed]) this.#earlierRestores.add(path);
    if (fact.kind !== "tool_call_finished" || fact.status !== "completed") return;
    const name = this.#names.get(fact.toolCallId);
    if (name !== "Write" && name !== "Edit" && name !== "NotebookEdit") return;
    const foreign = this.#foreign();
    for (const content of fact.content) {
      if (content.type !== "diff") continue;
      const earlier = this.#changes.get(content.path);
      this.#changes.set(content.path, {
        before: earlier ? earlier.before : (content.oldText ?? null),
        after: content.newText,
        ...(earlier?.foreign || foreign ? { foreign: earlier?.foreign ?? foreign } : {}),
      });
    }
  }

  /** Why an edit made now is not this user's verbatim's in this workspace, or undefined when it is. */
  #foreign(): string | undefined {
    const holder = this.holder;
    if (!holder) return "recorded before verbatim named who made each edit, left alone";
    if (holder.host === "") return "recorded elsewhere (imported), left alone";
    if (holder.host !== this.here.host || holder.cwd !== this.here.cwd)
      return `recorded elsewhere (on ${holder.host} in ${holder.cwd}), left alone`;
    return undefined;
  }

  /**
   * What a restore would do: each file it may put back (it holds exactly what verbatim's last
   * edit left there), and each it leaves alone with why. Reads only; never throws for one file.
   */
  plan(roots: readonly string[]): { files: FileToRestore[]; leftAlone: LeftAlone[] } {
    const files: FileToRestore[] = [];
    const leftAlone: LeftAlone[] = [];
    for (const [path, change] of [...this.#changes].sort(([a], [b]) => a.localeCompare(b))) {
      const reason = this.#earlierRestores.has(path) ? "an earlier rewind restored it" : change.foreign;
      if (reason) {
        leftAlone.push({ path, reason });
        continue;
      }
      const file = { path, from: change.after, to: change.before };
      const outcome = guarded(() => putBack(file, roots, false));
      if (outcome === "ready") files.push(file);
      else leftAlone.push({ path, reason: outcome });
    }
    return { files, leftAlone };
  }
}

/**
 * Puts the planned files back; never throws for one file. `finishing`: a restore a dead process
 * left unfinished, where a file that already holds what it was to get was put back then.
 */
export function restoreFiles(
  files: readonly FileToRestore[],
  roots: readonly string[],
  finishing: boolean,
): Omit<FilesRestored, "commandsRun"> {
  const done: Omit<FilesRestored, "commandsRun"> = { restored: [], removed: [], leftAlone: [] };
  for (const file of files) {
    const outcome = guarded(() => putBack(file, roots, true, finishing));
    if (outcome === "removed" || outcome === "restored") done[outcome].push(file.path);
    else done.leftAlone.push({ path: file.path, reason: outcome });
  }
  return done;
}

function guarded(run: () => string): string {
  try {
    return run();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";

/**
 * Checks one file, and with `act` puts it back, acting only on the entry of its open folder that
 * was read and compared: never through a link, never on a file put in its place. Returns "ready"
 * (checked, not acted on), "removed" or "restored", or why the file is left alone.
 */
function putBack(file: FileToRestore, roots: readonly string[], act: boolean, finishing = false): string {
  let entry: FolderEntry;
  try {
    entry = openEntry(file.path, roots);
  } catch (error) {
    if (!isMissing(error)) throw error;
    return finishing && file.to === null ? "removed" : "deleted since";
  }
  try {
    let opened: ReturnType<typeof openEntryFile>;
    try {
      opened = openEntryFile(entry, act && file.to !== null ? O_RDWR : O_RDONLY);
    } catch (error) {
      if (!isMissing(error)) throw error;
      return finishing && file.to === null ? "removed" : "deleted since";
    }
    try {
      const now = readWhole(opened.fd, opened.size);
      if (finishing && file.to !== null && now === file.to && now !== file.from) return "restored";
      if (now !== file.from) return "changed since verbatim last edited it";
      if (!act) return "ready";
      if (file.to === null) {
        removeEntry(entry, opened);
        return "removed";
      }
      writeAll(opened.fd, file.to);
      return "restored";
    } finally {
      closeSync(opened.fd);
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
