/** What a client does with the ids a rewind took back (its answer's, or a follower's notice). */
import type { ViewModel } from "./view-model.ts";

/** What a client does with a rewind's answer: the named messages and cards leave its view; session state stays. */
export function dropRetracted(
  view: ViewModel,
  { messageIds, toolCallIds }: { messageIds: string[]; toolCallIds: string[] },
): ViewModel {
  const gone = new Set([...messageIds.map((id) => `message:${id}`), ...toolCallIds.map((id) => `tool:${id}`)]);
  view.timeline = view.timeline.filter((entry) => !gone.has(entry));
  for (const id of messageIds) delete view.messages[id];
  for (const id of toolCallIds) delete view.toolCalls[id];
  return view;
}
