/**
 * Prints a session's updates as a readable transcript while they stream: answer text as it
 * arrives, thinking marked, tool cards as one line each when they settle.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";

type Write = (text: string) => void;

export class LivePrinter {
  #current: string | undefined;
  readonly #titles = new Map<string, string>();

  constructor(private readonly out: Write, private readonly progress: Write) {}

  print(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        const key = `${update.sessionUpdate}:${update.messageId ?? ""}`;
        const thought = update.sessionUpdate === "agent_thought_chunk";
        if (this.#current !== key) {
          this.#break();
          this.#current = key;
          if (thought) this.out("~ ");
          if (update._meta) this.out("! ");
        }
        if (update.content.type === "text") this.out(thought ? update.content.text.replaceAll("\n", "\n~ ") : update.content.text);
        return;
      }
      case "tool_call":
        this.#titles.set(update.toolCallId, update.title);
        this.progress(`… ${update.title}\n`);
        return;
      case "tool_call_update": {
        if (update.status !== "completed" && update.status !== "failed") return;
        this.#break();
        const title = update.title ?? this.#titles.get(update.toolCallId) ?? update.toolCallId;
        this.out(`[${update.status}] ${title}\n`);
        return;
      }
      case "plan":
        this.#break();
        this.out(`plan: ${update.entries.map((e) => `${e.status === "completed" ? "✓" : e.status === "in_progress" ? "▸" : "·"} ${e.content}`).join("; ")}\n`);
        return;
      default:
        return;
    }
  }

  /** Ends the current line, if a message was being printed. */
  finish(): void {
    this.#break();
  }

  #break(): void {
    if (this.#current !== undefined) this.out("\n");
    this.#current = undefined;
  }
}
