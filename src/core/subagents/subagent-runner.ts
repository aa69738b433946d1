/**
 * Running a subagent: a child session of its own (its own journal records, `parentSessionId` on
 * its row and its first fact) that plays one turn on the subagent's prompt. Each child fact that
 * changes what the parent's `Task` card shows is followed by a `tool_call_progressed` in the
 * parent's journal, so the parent reopens identically without reading the child.
 *
 * Hooks: SubagentStart belongs right after `subagent_started`, SubagentStop right after the
 * child's turn ends (before its result is returned); both carry the child's session id.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { Fact, Money, StoredFact } from "../../journal/facts/index.ts";
import { SubagentProgress } from "../../replay/subagent-progress.ts";
import type { TurnOutcome } from "../turn/run-turn.ts";
import type { UserCommand } from "../commands/command-files.ts";
import {
  subagentKinds,
  type SubagentKind,
  type SubagentLauncher,
  type SubagentResult,
} from "../tools/subagent-launcher.ts";
import { defined } from "../../shared/defined.ts";
import { ChildCalls, subagentQuestionTitle } from "./question-title.ts";

export type ChildSession = {
  readonly sessionId: string;
  /** The child's state as folded so far (its cost, once its turn has ended). */
  readonly state: { readonly sessionCost: Money | undefined };
  prompt(blocks: ContentBlock[]): Promise<TurnOutcome>;
  cancel(): void;
  close(): Promise<void>;
};

/** What a subagent needs of its parent session. */
export type ParentSession = {
  record(fact: Fact): Promise<void>;
  /**
   * Creates the child session (recording its first fact); `publish` sees each child fact after it
   * is journaled, and the child's record is done once what `publish` returns is.
   */
  spawn(
    kind: SubagentKind,
    parentToolCallId: string,
    publish: (record: StoredFact) => Promise<void> | undefined,
    command?: UserCommand,
  ): Promise<ChildSession>;
};

/** `custom`: the session's custom subagent types, read when a `Task` call needs them. */
export function subagentLauncher(
  parent: ParentSession,
  custom: () => Promise<SubagentKind[]> = async () => [],
): SubagentLauncher {
  const kinds = async () => [...subagentKinds, ...(await custom())];
  return {
    kinds,
    async run(request): Promise<SubagentResult> {
      const all = await kinds();
      const kind = all.find((k) => k.name === request.subagentType) ?? subagentKinds[0]!;
      const toolCallId = request.parentToolCallId;
      const progress = new SubagentProgress();
      const calls = new ChildCalls();
      // The parent's card follows the child's facts: a child fact is shown once the card shows it.
      const child = await parent.spawn(
        kind,
        toolCallId,
        (record) => {
          const { fact } = record;
          calls.apply(fact);
          const changed = progress.apply(fact);
          // While a child's question is open the card is titled by the call that waits: the question
          // is asked about this card, and a client may show a question by its title alone.
          const title = retitle(fact, calls, kind.name, request.title);
          if (!changed && title === undefined) return undefined;
          return parent.record({
            kind: "tool_call_progressed",
            toolCallId,
            content: progress.content(),
            ...defined({ title }),
          });
        },
        request.command,
      );
      await parent.record({
        kind: "subagent_started",
        toolCallId,
        sessionId: child.sessionId,
        subagentType: kind.name,
        description: request.description,
      });
      const cancel = () => child.cancel();
      request.signal.addEventListener("abort", cancel, { once: true });
      let outcome: TurnOutcome;
      try {
        outcome = request.signal.aborted
          ? { ok: true, stopReason: "cancelled" }
          : await child.prompt([{ type: "text", text: request.prompt }]);
      } catch (error) {
        outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
      } finally {
        request.signal.removeEventListener("abort", cancel);
        await child.close();
      }
      const cost = child.state.sessionCost;
      const base = { sessionId: child.sessionId, content: progress.content(), ...defined({ cost }) };
      if (!outcome.ok) return { ...base, ok: false, text: `The subagent failed: ${outcome.error}` };
      if (outcome.stopReason === "cancelled")
        return { ...base, ok: false, text: "The subagent was cancelled before it finished." };
      const answer = progress.answer().trim();
      const cut = outcome.stopReason === "end_turn" ? "" : ` (it stopped early: ${outcome.stopReason})`;
      return { ...base, ok: true, text: answer ? `${answer}${cut}` : `The subagent finished without a report${cut}.` };
    },
  };
}

/** The card's title after a child fact: the waiting call's when a question opens, its own again when it is answered. */
function retitle(fact: Fact, calls: ChildCalls, subagentType: string, taskTitle: string): string | undefined {
  if (fact.kind === "permission_answered") return taskTitle;
  if (fact.kind !== "permission_requested") return undefined;
  // The gate asks only about announced calls; were one unknown, the title still would not be the Task's.
  const call = calls.get(fact.toolCallId) ?? { name: "Call", title: fact.toolCallId };
  return subagentQuestionTitle(call, subagentType);
}
