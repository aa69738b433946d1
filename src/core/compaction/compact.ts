/**
 * Compaction: a model call that summarises the conversation so far, so the model can continue
 * from the summary instead of every earlier turn. It is recorded as it happens (started, the
 * summary as it streams, ended); the conversation fold then starts from the summary. What the
 * user is shown of the earlier turns does not change.
 *
 * Hooks (PreCompact before it, SessionStart with `source: "compact"` and PostCompact after one
 * that completed) are fired around it by its caller (compaction/run-compaction.ts).
 */
import type { Fact, ModelRef, Money, TokenCounts, ToolSpec } from "../../journal/facts/index.ts";
import type { ModelMessage } from "../../replay/model-messages.ts";
import { mintId } from "../ids.ts";
import type { Provider } from "../providers/types.ts";
import { defined } from "../../shared/defined.ts";
import { addCost } from "../../replay/session-cost.ts";

const COMPACTION_SYSTEM = [
  "You summarise a conversation between a user and verbatim, a coding agent, so that the agent can",
  "continue the work with only your summary in place of the conversation.",
  "Keep: what the user asked for and decided, the current state of the work, files read or changed",
  "(with paths), commands run and what they showed, open problems, and the next steps.",
  "Answer with the summary only, as plain text. Do not call tools.",
].join("\n");

export type CompactionRun = {
  turnId: string;
  trigger: "auto" | "manual";
  /** What the user asked the summary to keep (`/compact <focus>`). */
  focus?: string;
  /** The conversation to summarise (the model's context before the current turn, or all of it mid-turn). */
  history: ModelMessage[];
  /** Between two steps of the turn: the model's context restarts from the summary alone (compaction_ended.midTurn). */
  midTurn?: true;
  record(fact: Fact): Promise<void>;
  provider: Provider;
  model: ModelRef;
  tools: ToolSpec[];
  cwd: string;
  signal: AbortSignal;
  /** The session's cost before the compaction (what its usage update adds the compaction's cost to). */
  sessionCost?: Money;
  /** The context as the last usage update showed it: what a compaction that fails leaves it. */
  contextUsage?: { used: number; size: number };
};

/**
 * Runs one compaction: the outcome is recorded and returned, a provider's failure included (its
 * outcome `failed`). Throws only what recording a fact throws (a journal that cannot be written),
 * as every step of a turn does; nothing more of the compaction is recorded then.
 */
export async function compact(run: CompactionRun): Promise<"completed" | "failed" | "cancelled"> {
  const compactionId = mintId("cmp");
  const { turnId } = run;
  const midTurn = run.midTurn ? { midTurn: true as const } : {};
  const record = (fact: Fact) => run.record(fact.kind === "compaction_ended" ? { ...fact, ...midTurn } : fact);
  await record({ kind: "compaction_started", compactionId, turnId, messageId: mintId("msg"), trigger: run.trigger });
  const { summary, usage, ...streamed } = await summarise(run, (text) =>
    record({ kind: "compaction_chunk", compactionId, text }),
  );
  // What the call cost is the session's whatever came of it.
  const cost = usage ? run.provider.cost?.(run.model.model, usage) : undefined;
  const spent = defined({ usage, cost });
  // A call that did not compact still cost what it cost: its usage update shows the context as it
  // stands, with the session's cost now (only when there is a cost to show and a context to show it with).
  const unchanged =
    cost && run.contextUsage ? { context: run.contextUsage, sessionCost: addCost(run.sessionCost, cost) } : {};
  const ended = <O extends "completed" | "failed" | "cancelled">(outcome: O) =>
    ({ kind: "compaction_ended", compactionId, turnId, outcome }) as const;
  if (run.signal.aborted) {
    await record({ ...ended("cancelled"), ...spent, ...unchanged });
    return "cancelled";
  }
  const failure = streamed.failure ?? (summary.trim() === "" ? "the model returned no summary" : undefined);
  if (failure !== undefined) {
    await record({ ...ended("failed"), error: failure, ...spent, ...unchanged });
    return "failed";
  }
  // The editor is shown the compacted context at once, not the old one until the next step reports.
  const context = {
    used: usage?.outputTokens ?? Math.ceil(summary.length / 4),
    size: run.provider.contextWindow(run.model.model),
  };
  const sessionCost = addCost(run.sessionCost, cost);
  await record({ ...ended("completed"), summary, ...spent, context, ...defined({ sessionCost }) });
  return "completed";
}

/**
 * The model's summary, each piece recorded as it streams (`chunk`), its usage, and why it failed
 * (the provider's error). A chunk the journal refused is the journal's failure, not the model's:
 * it is thrown as it is.
 */
async function summarise(
  run: CompactionRun,
  chunk: (text: string) => Promise<void>,
): Promise<{ summary: string; usage?: TokenCounts; failure?: string }> {
  const ask = run.focus
    ? `Summarise the conversation above. Keep in particular: ${run.focus}`
    : "Summarise the conversation above.";
  let summary = "";
  let usage: TokenCounts | undefined;
  let unrecorded: { error: unknown } | undefined;
  try {
    const stream = run.provider.stream(
      {
        model: run.model.model,
        system: COMPACTION_SYSTEM,
        messages: [...run.history, { role: "user", content: [{ type: "text", text: ask }] }],
        // Tool definitions stay: a provider refuses earlier tool calls in a request that defines no tools.
        tools: run.tools,
        thoughtLevel: "off",
        cwd: run.cwd,
        purpose: "compaction",
      },
      run.signal,
    );
    for await (const event of stream) {
      if (event.type === "text_delta" && event.text) {
        summary += event.text;
        await chunk(event.text).catch((error: unknown) => {
          unrecorded = { error };
          throw error;
        });
      } else if (event.type === "usage") {
        const { type: _type, ...counts } = event;
        usage = counts;
      } else if (event.type === "error") return { summary, ...defined({ usage }), failure: event.message };
      else if (event.type === "done") break;
    }
  } catch (error) {
    if (unrecorded) throw unrecorded.error;
    return { summary, ...defined({ usage }), failure: error instanceof Error ? error.message : String(error) };
  }
  return { summary, ...defined({ usage }) };
}
