/**
 * What a subagent's permission question is titled. The client is asked about the parent's `Task`
 * card (it knows no child card), and a client may show a question by its title alone: so the
 * title names the call that waits (its tool and its own title, as the child's card shows it) and
 * the subagent that made it, never the `Task` it runs under.
 */
import type { Fact } from "../../journal/facts/index.ts";

type ChildCall = { name: string; title: string };

/** `Bash: wc -l README.md (subagent: general-purpose)`; a title that already starts with its tool's name keeps it once. */
export function subagentQuestionTitle(call: ChildCall, subagentType: string): string {
  const named = call.title.startsWith(`${call.name} `) ? call.title : `${call.name}: ${call.title}`;
  return `${named} (subagent: ${subagentType})`;
}

/** The child's calls as its cards show them: announced, and retitled when a hook rewrote the input. */
export class ChildCalls {
  readonly #calls = new Map<string, ChildCall>();

  apply(fact: Fact): void {
    if (fact.kind === "tool_call_announced") this.#calls.set(fact.toolCallId, { name: fact.name, title: fact.title });
    else if (fact.kind === "tool_input_rewritten") {
      const call = this.#calls.get(fact.toolCallId);
      if (call) call.title = fact.title;
    }
  }

  get(toolCallId: string): ChildCall | undefined {
    return this.#calls.get(toolCallId);
  }
}
