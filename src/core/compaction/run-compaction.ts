/**
 * One compaction with its hooks around it: PreCompact first (a block skips it); one that
 * completed runs SessionStart (`source: "compact"`), then PostCompact.
 */
import type { Fact, ModelRef } from "../../journal/facts/index.ts";
import type { ModelMessage } from "../../replay/model-messages.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { mintId } from "../ids.ts";
import type { Provider } from "../providers/types.ts";
import { defined } from "../../shared/defined.ts";
import { compact } from "./compact.ts";

export type CompactionRun = {
  turnId: string;
  state: SessionStateFold;
  /** The model's context as it stands (the turn's prompt is its last message). */
  messages: ModelMessage[];
  record(fact: Fact): Promise<void>;
  provider: Provider;
  model: ModelRef;
  signal: AbortSignal;
  /** The session's compaction hooks, when hooks are configured. */
  hooks?: CompactionHooks;
};

/** The hooks around a compaction (hooks/session-hooks.ts). */
export type CompactionHooks = {
  /** PreCompact: why a hook blocked the compaction, if one did. */
  preCompact(
    c: { trigger: "manual" | "auto"; customInstructions: string },
    signal: AbortSignal,
  ): Promise<string | undefined>;
  /** SessionStart with `source: "compact"`, to give back context the summary may have lost. */
  compacted(signal: AbortSignal): Promise<void>;
  postCompact(c: { trigger: "manual" | "auto"; summary: string }, signal: AbortSignal): Promise<void>;
};

/** How a compaction went: `blocked` carries the PreCompact hook's reason. */
export type CompactionResult =
  | { outcome: "completed" | "failed" | "cancelled" }
  | { outcome: "blocked"; reason: string };

/** What the user is shown when a PreCompact hook blocked a compaction. */
export function blockedNotice(reason: string): Fact {
  return {
    kind: "notice_shown",
    messageId: mintId("msg"),
    severity: "warning",
    title: "A PreCompact hook blocked the compaction",
    description: reason,
  };
}

/** Runs one compaction with its hooks around it: the outcome is recorded and returned; throws only what recording throws (compact.ts). */
export async function runCompaction(
  p: CompactionRun,
  run: { trigger: "auto" | "manual"; history: ModelMessage[]; focus?: string; midTurn?: true },
): Promise<CompactionResult> {
  const { trigger, history, focus } = run;
  const blocked = await p.hooks?.preCompact({ trigger, customInstructions: focus ?? "" }, p.signal);
  if (blocked !== undefined) return { outcome: "blocked", reason: blocked };
  if (p.signal.aborted) return { outcome: "cancelled" };
  let summary = "";
  const outcome = await compact({
    turnId: p.turnId,
    trigger,
    ...(focus ? { focus } : {}),
    history,
    ...(run.midTurn ? { midTurn: true as const } : {}),
    record: async (fact) => {
      if (fact.kind === "compaction_chunk") summary += fact.text;
      await p.record(fact);
    },
    provider: p.provider,
    model: p.model,
    tools: p.state.modelTools(),
    cwd: p.state.cwd,
    signal: p.signal,
    ...defined({ sessionCost: p.state.sessionCost, contextUsage: p.state.contextUsage }),
  });
  if (outcome === "completed" && !p.signal.aborted) {
    await p.hooks?.compacted(p.signal);
    await p.hooks?.postCompact({ trigger, summary }, p.signal);
  }
  return { outcome };
}
