/**
 * A rewind's file restore as its own recorded step, after the rewind's record (so that what the
 * rewind took back is exact whatever happens to the files): its card is recorded first
 * (`files_restore_planned`: every file it would put back with its diff, those it leaves alone with
 * why), then it is allowed as any edit is (asked in the default mode, let through in acceptEdits
 * and bypassPermissions, refused in plan mode), then its intent is marked (`files_restore_started`)
 * before the first file changes, and its outcome is recorded after (`files_restore_ended`). A load
 * that finds a start and no end shows the card interrupted; a rewind with files to the same
 * message, before any new prompt, finishes it. The card is the user's only: the model's
 * conversation never sees it.
 */
import type { Fact, FactOf, FilesRestored, FileToRestore, RetractedRange } from "../../journal/facts/index.ts";
import { thisProcess } from "../../journal/process-identity.ts";
import type { JournalStore } from "../../journal/store.ts";
import { isRetracted } from "../../replay/retraction.ts";
import type { Holder, RestoreState } from "../../replay/state-parts.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { mintId } from "../ids.ts";
import type { Located } from "./rewind-index.ts";
import { FileChanges, type LeftAlone, restoreFiles } from "./rewind-files.ts";
import type { SessionIo } from "./session-types.ts";

/** What a rewind and its restore need of their session (SessionRuntime.rewind hands it over). */
export type RewindingSession = {
  sessionId: string;
  state: SessionStateFold;
  store: JournalStore;
  /** The session's directories: its cwd and additional directories. */
  roots: string[];
  /** The session's index of its messages and calls, when it was folded from record 1 (the runtime's, kept as its records are folded). */
  index: Located | undefined;
  record(fact: Fact): Promise<void>;
  askCard: SessionIo["askCard"];
};

/** How a restore ended: what it did, or that it was refused and why (nothing changed then). */
export type RestoreResult = {
  restoreId: string;
  outcome: "completed" | "refused";
  reason?: string;
  files: FilesRestored;
};

/** Plans, asks and runs the restore of what verbatim's own edits after `toSeq` changed (but what earlier rewinds took back: their own restores had the choice). */
export async function restoreAfter(
  runtime: RewindingSession,
  point: { toSeq: number; toMessageId: string | undefined },
  taken: readonly RetractedRange[],
): Promise<RestoreResult> {
  const here = { host: thisProcess().host, cwd: runtime.state.cwd };
  const changes = new FileChanges(here, holderAt(runtime.state.holders, point.toSeq));
  for await (const page of runtime.store.readPages(runtime.sessionId, point.toSeq + 1))
    for (const record of page) changes.push(record, isRetracted(taken, record.seq));
  const plan = changes.plan(runtime.roots);
  const planned: FactOf<"files_restore_planned"> = {
    kind: "files_restore_planned",
    restoreId: mintId("call"),
    ...(point.toMessageId ? { toMessageId: point.toMessageId } : {}),
    files: plan.files,
    leftAlone: plan.leftAlone,
    commandsRun: changes.commandsRun,
  };
  await runtime.record(planned);
  return runRestore(runtime, { ...planned, started: false }, plan.leftAlone, false);
}

/** The restore a dead process left unfinished, when a rewind with files to `toMessageId` now finishes it. */
export function unfinishedRestore(
  runtime: RewindingSession,
  toMessageId: string | undefined,
): RestoreState | undefined {
  const restore = runtime.state.restore;
  if (!restore || restore.ended || restore.toMessageId !== toMessageId) return undefined;
  return restore.prompts === runtime.state.prompts ? restore : undefined;
}

/** Finishes a restore a dead process left unfinished: asked again, then each file not put back yet is. */
export function finishRestore(runtime: RewindingSession, restore: RestoreState): Promise<RestoreResult> {
  return runRestore(runtime, restore, [], true);
}

async function runRestore(
  runtime: RewindingSession,
  restore: { restoreId: string; files: FileToRestore[]; commandsRun: number; started: boolean },
  leftAlone: LeftAlone[],
  finishing: boolean,
): Promise<RestoreResult> {
  const { restoreId, files, commandsRun } = restore;
  const nothing = { restored: [], removed: [], leftAlone, commandsRun };
  if (files.length === 0) return ended(runtime, { restoreId, outcome: "completed", files: nothing });
  const allowed = await allow(runtime, restoreId);
  if (!allowed.allowed) {
    const refused = files.map((f) => ({ path: f.path, reason: "not restored: the restore was refused" }));
    return ended(runtime, {
      restoreId,
      outcome: "refused",
      reason: allowed.reason,
      files: { ...nothing, leftAlone: [...leftAlone, ...refused] },
    });
  }
  if (!restore.started) await runtime.record({ kind: "files_restore_started", restoreId });
  const done = restoreFiles(files, runtime.roots, finishing);
  return ended(runtime, {
    restoreId,
    outcome: "completed",
    files: { ...done, leftAlone: [...leftAlone, ...done.leftAlone], commandsRun },
  });
}

async function ended(runtime: RewindingSession, result: RestoreResult): Promise<RestoreResult> {
  await runtime.record({ kind: "files_restore_ended", ...result });
  return result;
}

/** A restore writes files: it is allowed as an edit is, by the session's mode, else by the user. */
async function allow(
  runtime: RewindingSession,
  restoreId: string,
): Promise<{ allowed: true } | { allowed: false; reason: string }> {
  const mode = runtime.state.modeId;
  if (mode === "acceptEdits" || mode === "bypassPermissions") return { allowed: true };
  if (mode === "plan") return { allowed: false, reason: "plan mode changes no file" };
  const ask = runtime.askCard;
  if (!ask) return { allowed: false, reason: "no one can be asked for permission" };
  return ask(restoreId, { state: runtime.state, record: (fact) => runtime.record(fact) }, new AbortController().signal);
}

/** The session's holder at record `seq`: the last named at or before it. */
function holderAt(holders: readonly Holder[], seq: number): Holder | undefined {
  return holders.findLast((h) => h.seq <= seq);
}
