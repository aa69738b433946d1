/**
 * Replay may send consecutive chunks of one message as one chunk: the folded view is identical
 * (text appends), and a long session reopens with far fewer messages. Only plain text chunks
 * with the same kind and message id, and no `_meta`, are merged.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";

type Chunk = SessionUpdate & { sessionUpdate: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk" };

const mergeable = (u: SessionUpdate): u is Chunk =>
  (u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "agent_thought_chunk") &&
  u.content.type === "text" && u._meta === undefined && typeof u.messageId === "string";

export class ChunkCoalescer {
  #pending: Chunk | undefined;
  #text = "";

  /** Feeds one update; returns the updates ready to send, in order. */
  push(update: SessionUpdate): SessionUpdate[] {
    if (mergeable(update)) {
      const p = this.#pending;
      if (p && p.sessionUpdate === update.sessionUpdate && p.messageId === update.messageId) {
        this.#text += (update.content as { text: string }).text;
        return [];
      }
      const out = this.flush();
      this.#pending = update;
      this.#text = (update.content as { text: string }).text;
      return out;
    }
    const out = this.flush();
    out.push(update);
    return out;
  }

  flush(): SessionUpdate[] {
    const p = this.#pending;
    if (!p) return [];
    this.#pending = undefined;
    return [{ ...p, content: { type: "text", text: this.#text } }];
  }
}
