/** A session's index of what a rewind needs to find its point (rewind.ts). */
import type { StoredFact } from "../../journal/facts/index.ts";
import { MessagePoints } from "../../replay/message-points.ts";

/** The messages a client is shown and the cards announced (tool calls and file restores), from records folded in order. */
export class Located {
  readonly points = new MessagePoints();
  readonly calls: { toolCallId: string; seq: number }[] = [];

  push(record: StoredFact): void {
    this.points.push(record);
    if (record.fact.kind === "tool_call_announced")
      this.calls.push({ toolCallId: record.fact.toolCallId, seq: record.seq });
    if (record.fact.kind === "files_restore_planned")
      this.calls.push({ toolCallId: record.fact.restoreId, seq: record.seq });
  }
}
