/**
 * Replay may send consecutive chunks of one message as one chunk: the folded view is identical
 * (text appends), and a long session reopens with far fewer messages. Only plain text chunks
 * with the same kind and message id, and no `_meta`, are merged.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";

type Chunk = SessionUpdate & { sessionUpdate: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk" };

const mergeable = (u: SessionUpdate): u is Chunk =>
  (u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "agent_thought_chunk") &&
  u.content.type === "text" &&
  u._meta === undefined &&
  typeof u.messageId === "string";

/** Nothing ready: shared, as most chunks of a long replay merge into the one before them. */
const NOTHING: readonly SessionUpdate[] = Object.freeze([]);

export class ChunkCoalescer {
  #pending: Chunk | undefined;
  #text = "";

  /** Feeds one update; returns the updates ready to send, in order. */
  push(update: SessionUpdate): readonly SessionUpdate[] {
    if (mergeable(update)) {
      const p = this.#pending;
      if (p && p.sessionUpdate === update.sessionUpdate && p.messageId === update.messageId) {
        this.#text += (update.content as { text: string }).text;
        return NOTHING;
      }
      const ready = this.#take();
      this.#pending = update;
      this.#text = (update.content as { text: string }).text;
      return ready ? [ready] : NOTHING;
    }
    const ready = this.#take();
    return ready ? [ready, update] : [update];
  }

  flush(): readonly SessionUpdate[] {
    const ready = this.#take();
    return ready ? [ready] : NOTHING;
  }

  /** The pending chunk with all the text merged into it, if any; nothing is pending after. */
  #take(): SessionUpdate | undefined {
    const p = this.#pending;
    if (!p) return undefined;
    this.#pending = undefined;
    return { ...p, content: { type: "text", text: this.#text } };
  }
}
