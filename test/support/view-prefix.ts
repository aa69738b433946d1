/**
 * The prefix property: a view folded from the updates a client received before a crash must be
 * contained in the view a reload shows. Messages may have grown (facts journaled but not yet
 * received), cards may have moved on (or been marked interrupted), but nothing shown is lost,
 * reordered or changed.
 */
import type { ViewModel } from "../../src/view/view-model.ts";

const statusRank: Record<string, number> = { pending: 0, in_progress: 1, completed: 2, failed: 2 };

const text = (content: { type: string; text?: string }[]) =>
  content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("");

export function prefixViolations(before: ViewModel, after: ViewModel): string[] {
  const problems: string[] = [];
  if (after.problems.length) problems.push(`reload has problems: ${after.problems.join("; ")}`);
  const afterTimeline = after.timeline.slice(0, before.timeline.length);
  if (JSON.stringify(afterTimeline) !== JSON.stringify(before.timeline)) {
    problems.push(`timeline is not a prefix: ${before.timeline.length} live entries, reload order differs`);
  }
  for (const [id, message] of Object.entries(before.messages)) {
    const replayed = after.messages[id];
    if (!replayed) {
      problems.push(`message ${id} lost`);
      continue;
    }
    if (replayed.role !== message.role) problems.push(`message ${id} changed role`);
    if (!text(replayed.content).startsWith(text(message.content)))
      problems.push(`message ${id} text is not an extension of what was shown`);
  }
  for (const [id, card] of Object.entries(before.toolCalls)) {
    const replayed = after.toolCalls[id];
    if (!replayed) {
      problems.push(`tool call ${id} lost`);
      continue;
    }
    for (const field of ["name", "title", "kind", "rawInput", "locations"] as const) {
      if (JSON.stringify(replayed[field]) !== JSON.stringify(card[field]))
        problems.push(`tool call ${id} ${field} changed`);
    }
    if ((statusRank[replayed.status] ?? -1) < (statusRank[card.status] ?? 0))
      problems.push(`tool call ${id} went back from ${card.status} to ${replayed.status}`);
    if (
      (card.status === "completed" || card.status === "failed") &&
      JSON.stringify(replayed.content) !== JSON.stringify(card.content)
    ) {
      problems.push(`settled tool call ${id} content changed`);
    }
  }
  if (before.plan && !after.plan) problems.push("plan lost");
  if (before.title && after.title !== before.title) problems.push("title changed");
  if (before.modeId && !after.modeId) problems.push("mode lost");
  return problems;
}
