/**
 * A tool card as the client holds it, and the updates that change it. Clients replace `content`
 * and `_meta` whole, so every update that touches either carries the whole accumulated value.
 */
import type { SessionUpdate, ToolCallContent, ToolKind } from "@agentclientprotocol/sdk";
import { textContent } from "../journal/facts/display-shapes.ts";
import type { PermissionOutcome } from "../journal/facts/index.ts";
import type { PermissionOption } from "@agentclientprotocol/sdk";
import type { FactOf } from "../journal/facts/index.ts";

/** verbatim's own data on a card, sent under `_meta.verbatim`. */
export type CardMeta = {
  /** Exactly design.md's contract: the options offered and the answer (null while open). */
  permission?: { options: PermissionOption[]; outcome: PermissionOutcome | null };
  outcome?: { by: string; reason: string };
  interrupted?: { mayHaveRun: boolean };
  [key: string]: unknown;
};

/** A background job as its card folds it (job-card.ts). `base`: the call's own content (what its result showed). */
export type CardJob = {
  jobId: string;
  outputPath: string;
  base: ToolCallContent[];
  tail: string;
  chars: number;
  dropped: number;
  ended?: FactOf<"job_ended">;
};

export type Card = {
  toolCallId: string;
  title: string;
  kind: ToolKind;
  rawInput: unknown;
  locations: { path: string; line?: number | null }[];
  status: "pending" | "in_progress" | "completed" | "failed";
  started: boolean;
  /** The tool's own content (diff, output, terminal). */
  body: ToolCallContent[];
  /** Visible lines verbatim adds (permission answers, refusals, hook outcomes). */
  notes: ToolCallContent[];
  meta: CardMeta;
  /** Where each hook outcome's line is in `notes`, so a newer revision replaces it in place. */
  hookLines?: Map<string, number>;
  /** Keys other clients read, sent at the root of `_meta` beside `verbatim` (e.g. Zed's `subagent_session_info`). */
  interop?: Record<string, unknown>;
  /** The background job the call started, if any (job-card.ts). */
  job?: CardJob;
};

export const cardContent = (card: Card): ToolCallContent[] => [...card.body, ...card.notes];

export const cardMeta = (card: Card) => ({ ...card.interop, verbatim: { ...card.meta } });

export const isSettled = (card: Card) => card.status === "completed" || card.status === "failed";

/** The update for a card whose content and meta changed (both sent whole). */
export function contentAndMetaUpdate(card: Card, extra: Partial<{ status: Card["status"] }> = {}): SessionUpdate {
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: card.toolCallId,
    ...extra,
    content: cardContent(card),
    _meta: cardMeta(card),
  };
}

/**
 * Marks a call that a dead process left open. Used at load (computed, never written) and when
 * the session continues (then journaled), so both show the same card.
 */
export function interruptCard(card: Card, mayHaveRun: boolean): SessionUpdate {
  card.status = "failed";
  const line = card.meta.restore
    ? interruptedRestoreLine(card, mayHaveRun)
    : mayHaveRun
      ? "Interrupted: verbatim stopped while this call was running; its outcome is unknown."
      : "Interrupted: verbatim stopped before this call ran; it never ran.";
  card.meta = { ...card.meta, interrupted: { mayHaveRun } };
  card.notes = [...card.notes, textContent(line)];
  return contentAndMetaUpdate(card, { status: "failed" });
}

/** The line of a file restore (replay/restore-card.ts) a dead process left unfinished. */
function interruptedRestoreLine(card: Card, started: boolean): string {
  if (!started) return "Interrupted: verbatim stopped before this restore began; no file was changed.";
  const restore = card.meta.restore as { files?: { path: string }[] } | undefined;
  const paths = (restore?.files ?? []).map((f) => f.path).join(", ");
  return `Interrupted: verbatim stopped while restoring these files, which may be half restored: ${paths}. Rewinding with files to the same message again finishes it.`;
}
