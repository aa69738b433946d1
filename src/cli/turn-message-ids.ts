/**
 * The message ids of one turn, from the updates it sent: its prompt's (the first user message)
 * and the last agent message's (a rewind to it goes back to the end of the turn). Notices shown as
 * agent messages count: they end turns too.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";

export class TurnMessageIds {
  #prompt: string | undefined;
  #last: string | undefined;

  note(update: SessionUpdate): void {
    if (update.sessionUpdate === "user_message_chunk") this.#prompt ??= update.messageId ?? undefined;
    if (update.sessionUpdate === "agent_message_chunk" && update.messageId) this.#last = update.messageId;
  }

  /** `messageId`: the prompt's; `lastMessageId`: the turn's last agent message, when it had one. */
  ids(): { messageId?: string; lastMessageId?: string } {
    return {
      ...(this.#prompt ? { messageId: this.#prompt } : {}),
      ...(this.#last ? { lastMessageId: this.#last } : {}),
    };
  }
}
