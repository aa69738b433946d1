/**
 * How a compaction is shown. To a client that advertised `session.compaction`: ACP
 * `compaction_update` (in progress, then its end with the whole summary) and
 * `compaction_summary_chunk` as the summary streams. To any other client: an agent message of
 * its own (`messageId` from the record) whose chunks carry `_meta.verbatim.compaction`. Pure.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { FactOf } from "../journal/facts/index.ts";

export type CompactionShown = { messageId: string; trigger: "auto" | "manual" };

type CompactionFact = FactOf<"compaction_started"> | FactOf<"compaction_chunk"> | FactOf<"compaction_ended">;

const opening = {
  auto: "The conversation is nearing the model's context window, so older turns are being summarised for the model. Nothing shown here is removed.\n\n",
  manual: "Summarising older turns for the model. Nothing shown here is removed.\n\n",
};

export function compactionUpdates(
  fact: CompactionFact,
  shown: Map<string, CompactionShown>,
  native: boolean,
): SessionUpdate[] {
  const { compactionId } = fact;
  if (fact.kind === "compaction_started") {
    shown.set(compactionId, { messageId: fact.messageId, trigger: fact.trigger });
    if (native) return [{ sessionUpdate: "compaction_update", compactionId, status: "in_progress" }];
    return [
      message(fact.messageId, opening[fact.trigger], { compactionId, trigger: fact.trigger, status: "in_progress" }),
    ];
  }
  const entry = shown.get(compactionId);
  if (!entry) return [];
  if (fact.kind === "compaction_chunk") {
    if (native)
      return [{ sessionUpdate: "compaction_summary_chunk", compactionId, content: { type: "text", text: fact.text } }];
    return [message(entry.messageId, fact.text, { compactionId, trigger: entry.trigger, status: "in_progress" })];
  }
  const status = fact.outcome;
  if (native) {
    return [
      {
        sessionUpdate: "compaction_update",
        compactionId,
        status,
        ...(fact.summary !== undefined ? { summary: [{ type: "text", text: fact.summary }] } : {}),
        ...(fact.error !== undefined ? { error: fact.error } : {}),
      },
    ];
  }
  const closing =
    status === "completed"
      ? "\n\n(From here on the model sees this summary instead of the earlier turns.)"
      : status === "cancelled"
        ? "\n\nCompaction cancelled; the model still sees the whole conversation."
        : `\n\nCompaction failed${fact.error ? `: ${fact.error}` : ""}; the model still sees the whole conversation.`;
  return [
    message(entry.messageId, closing, {
      compactionId,
      trigger: entry.trigger,
      status,
      ...(fact.error ? { error: fact.error } : {}),
    }),
  ];
}

function message(messageId: string, text: string, compaction: Record<string, unknown>): SessionUpdate {
  return {
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text },
    messageId,
    _meta: { verbatim: { compaction } },
  };
}

/**
 * The context a compaction's end left, shown at once with the session's cost: a completed one's
 * compacted context; one that failed or was cancelled, the context as it stood, when its call cost
 * something. Older records kept none, and showed none.
 */
export function compactedUsage(fact: FactOf<"compaction_ended">): SessionUpdate[] {
  if (!fact.context) return [];
  const { used, size } = fact.context;
  return [{ sessionUpdate: "usage_update", used, size, ...(fact.sessionCost ? { cost: fact.sessionCost } : {}) }];
}

/** The notice a pruning of old tool output shows where it happened. */
export function prunedTitle(fact: FactOf<"tool_results_pruned">): string {
  const n = fact.toolCallIds.length;
  return `Pruned the output of ${n} older tool call${n === 1 ? "" : "s"} (about ${fact.freed} tokens) to keep the context within the window; the model is told each was pruned.`;
}
