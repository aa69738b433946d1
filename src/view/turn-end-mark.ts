/**
 * How a turn ended, as a client reads it from the update that shows it (`session_info_update`
 * with `_meta.verbatim.turnEnded`, docs/acp-language.md) and as the transcript draws it: one line
 * where the turn stopped, so that a cancelled, failed or interrupted turn does not end mid-word
 * with nothing said, live as in `show` and `watch`.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { visible } from "./visible-text.ts";

export type TurnEndMark = { ending: string; error?: string };

/** The turn end an update shows, if it shows one. */
export function turnEndIn(update: SessionUpdate): TurnEndMark | undefined {
  if (update.sessionUpdate !== "session_info_update") return undefined;
  const ended = (update._meta?.verbatim as { turnEnded?: { ending?: unknown; error?: unknown } } | undefined)
    ?.turnEnded;
  if (typeof ended?.ending !== "string") return undefined;
  return { ending: ended.ending, ...(typeof ended.error === "string" ? { error: ended.error } : {}) };
}

const WORDS: Record<string, string> = {
  cancelled: "the turn was cancelled",
  failed: "the turn failed",
  interrupted: "the turn was interrupted: verbatim stopped while it ran",
  max_tokens: "the turn stopped: the answer reached the model's output limit",
  max_turn_requests: "the turn stopped: it reached its limit of model requests",
};

/** The line a turn's end is drawn as (without its parentheses' newline). */
export function turnEndText(mark: TurnEndMark): string {
  const words = WORDS[mark.ending] ?? `the turn ended: ${visible(mark.ending)}`;
  return `(${words}${mark.error !== undefined ? `: ${visible(mark.error).replaceAll("\n", " ")}` : ""})`;
}
