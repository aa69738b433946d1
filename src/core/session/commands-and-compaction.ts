/**
 * A turn's slash command and compaction, before the model is asked: a slash command in the prompt is recorded
 * (a project command's text becomes what the model reads; `/compact` is carried out here and ends
 * the turn), and a context near the model's window is compacted first.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { Fact, ModelRef } from "../../journal/facts/index.ts";
import type { ModelMessage } from "../../replay/model-messages.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { invocationOf, type Invocation } from "../commands/slash.ts";
import type { InlineRunner } from "../commands/shell-inlines.ts";
import { compact, needsCompaction } from "../compaction/compact.ts";
import { mintId } from "../ids.ts";
import { commandPlace } from "./command-place.ts";
import type { Provider } from "../providers/types.ts";
import type { TurnOutcome } from "../turn/run-turn.ts";
import { defined } from "../../shared/defined.ts";

export type CompactionRun = {
  turnId: string;
  state: SessionStateFold;
  /** The model's context as it stands (the turn's prompt is its last message). */
  messages: ModelMessage[];
  record(fact: Fact): Promise<void>;
  provider: Provider;
  model: ModelRef;
  signal: AbortSignal;
  /** Runs once a compaction completed (SessionStart hooks with `source: "compact"`, to give back context). */
  afterCompaction?(signal: AbortSignal): Promise<void>;
};

/** Records the slash command a prompt invokes, if any (never inside a subagent). */
export async function recordInvocation(
  turnId: string,
  blocks: ContentBlock[],
  state: SessionStateFold,
  record: (fact: Fact) => Promise<void>,
  runInline?: InlineRunner,
): Promise<Invocation | undefined> {
  if (state.parentSessionId !== undefined) return undefined;
  const invocation = await invocationOf(blocks, commandPlace(state), undefined, runInline);
  if (!invocation) return undefined;
  await record({
    kind: "command_invoked",
    turnId,
    name: invocation.kind === "prompt" ? invocation.name : invocation.kind,
    arguments: invocation.arguments,
    ...(invocation.kind === "prompt" ? { modelText: invocation.modelText } : {}),
  });
  return invocation;
}

/** `/compact [focus]`: compacts the whole context and ends the turn. */
export async function compactCommand(p: CompactionRun, focus: string): Promise<TurnOutcome> {
  if (p.messages.length === 0) {
    await p.record({
      kind: "notice_shown",
      messageId: mintId("msg"),
      severity: "info",
      title: "There is nothing to compact yet.",
    });
  } else {
    await runCompaction(p, "manual", [...p.messages], focus);
  }
  const stopReason = p.signal.aborted ? "cancelled" : "end_turn";
  await p.record({ kind: "turn_ended", turnId: p.turnId, outcome: "completed", stopReason });
  return { ok: true, stopReason };
}

/**
 * Compacts before the turn's first step when the context recorded after the last step is near
 * the window. A failed compaction leaves the context whole: the turn goes on.
 */
export async function compactIfNeeded(p: CompactionRun): Promise<void> {
  if (!needsCompaction(p.state.contextUsage) || p.messages.length < 2) return;
  await runCompaction(p, "auto", p.messages.slice(0, -1));
}

async function runCompaction(
  p: CompactionRun,
  trigger: "auto" | "manual",
  history: ModelMessage[],
  focus?: string,
): Promise<void> {
  const outcome = await compact({
    turnId: p.turnId,
    trigger,
    ...(focus ? { focus } : {}),
    history,
    record: p.record,
    provider: p.provider,
    model: p.model,
    tools: p.state.modelTools(),
    cwd: p.state.cwd,
    signal: p.signal,
    ...defined({ sessionCost: p.state.sessionCost, contextUsage: p.state.contextUsage }),
  });
  if (outcome === "completed" && !p.signal.aborted) await p.afterCompaction?.(p.signal);
}
