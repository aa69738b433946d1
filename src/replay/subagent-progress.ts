/**
 * A subagent's progress as its parent's `Task` card shows it, folded from the child session's
 * facts: one line per tool call the subagent made (with its status and any permission question),
 * and the subagent's answers once each model step ends. Pure. The parent records what this
 * produces in its own journal, so the parent's replay never needs the child's facts.
 */
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import type { Fact } from "../journal/facts/index.ts";
import { permissionLine, refusalLine } from "./card-lines.ts";

type CallLine = {
  kind: "call";
  title: string;
  status: "pending" | "running" | "completed" | "failed";
  note?: string;
  options?: { optionId: string; name: string; kind: "allow_once" | "allow_always" | "reject_once" | "reject_always" }[];
};
type AnswerLine = { kind: "answer"; text: string };

const marks = { pending: "◦", running: "▸", completed: "✓", failed: "✗" } as const;

export class SubagentProgress {
  readonly #items: (CallLine | AnswerLine)[] = [];
  readonly #calls = new Map<string, CallLine>();
  readonly #stepText = new Map<string, string>();
  #lastAnswer = "";

  /** Folds one child fact; true when what the card shows changed. */
  apply(fact: Fact): boolean {
    switch (fact.kind) {
      case "tool_call_announced": {
        const line: CallLine = { kind: "call", title: fact.title, status: "pending" };
        this.#calls.set(fact.toolCallId, line);
        this.#items.push(line);
        return true;
      }
      case "tool_call_started":
        return this.#patch(fact.toolCallId, { status: "running" });
      case "tool_call_finished":
        return this.#patch(fact.toolCallId, { status: fact.status });
      case "tool_call_refused":
        return this.#patch(fact.toolCallId, { status: "failed", note: refusalLine(fact.by, fact.reason) });
      case "permission_requested":
        return this.#patch(fact.toolCallId, { note: "Waiting for permission.", options: fact.options });
      case "permission_answered": {
        const line = this.#calls.get(fact.toolCallId);
        return this.#patch(fact.toolCallId, {
          note: permissionLine(line?.options ?? [], fact.outcome, fact.answeredBy, fact.failure),
        });
      }
      case "message_chunk":
        if (fact.stream === "answer")
          this.#stepText.set(fact.stepId, (this.#stepText.get(fact.stepId) ?? "") + fact.text);
        return false;
      case "step_ended": {
        const text = this.#stepText.get(fact.stepId) ?? "";
        this.#stepText.delete(fact.stepId);
        if (!text.trim()) return false;
        this.#lastAnswer = text;
        this.#items.push({ kind: "answer", text });
        return true;
      }
      default:
        return false;
    }
  }

  /** The subagent's last answer so far ("" before it answered). */
  answer(): string {
    return this.#lastAnswer;
  }

  content(): ToolCallContent[] {
    return this.#items.map((item) => ({
      type: "content",
      content: { type: "text", text: item.kind === "answer" ? item.text : callLine(item) },
    }));
  }

  #patch(toolCallId: string, change: Partial<CallLine>): boolean {
    const line = this.#calls.get(toolCallId);
    if (!line) return false;
    Object.assign(line, change);
    return true;
  }
}

function callLine(line: CallLine): string {
  return `${marks[line.status]} ${line.title}${line.note ? ` — ${line.note}` : ""}`;
}
