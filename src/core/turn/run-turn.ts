/**
 * The turn loop: model step, validation, tool calls, repeat, until the model ends its turn, a
 * limit is reached, the turn is cancelled or it fails. Every fact is recorded as it happens.
 *
 * Contract: never throws for provider or tool failures; a failed turn is an outcome, recorded
 * (`turn_ended` with the error, after a visible notice) and returned.
 */
import type { StopReason } from "@agentclientprotocol/sdk";
import { addCost } from "../../replay/session-cost.ts";
import { mintId } from "../ids.ts";
import { withheldBlocks } from "../permissions/rules-in-force.ts";
import { executeCalls } from "./execute-calls.ts";
import { streamStep } from "./stream-step.ts";
import type { TurnContext } from "./turn-context.ts";
import { validateStep } from "./validate-step.ts";
import { defined } from "../../shared/defined.ts";
import { turnSettings } from "../commands/activation.ts";
import type { AcceptedCall } from "../../journal/facts/index.ts";
import type { ProviderStopReason } from "../providers/types.ts";

export type TurnOutcome = { ok: true; stopReason: StopReason } | { ok: false; error: string };

/**
 * Stop hooks that keep blocking the end of a turn are overridden: the turn ends at the
 * STOP_HOOK_BLOCK_CAP-th consecutive block (Claude Code's cap). The count is per user turn and
 * is not reset by tool calls, so a hook cannot keep a turn alive by alternating.
 */
export const STOP_HOOK_BLOCK_CAP = 8;

export async function runTurn(ctx: TurnContext): Promise<TurnOutcome> {
  const stopBlocks = { count: 0 };
  const session = { model: ctx.model, provider: ctx.provider, thoughtLevel: ctx.thoughtLevel };
  for (let step = 0; step < ctx.maxSteps; step++) {
    actingCommands(ctx, session);
    const stopped = await beforeRequest(ctx, step === 0);
    if (stopped) return stopped;
    const stepped = await modelStep(ctx);
    if ("outcome" in stepped) return stepped.outcome;
    if (stepped.calls.length === 0) {
      const ended = await endOfReply(ctx, stepped.stopReason, stopBlocks);
      if (ended) return ended;
      continue;
    }
    await executeCalls(ctx, stepped.calls);
    if (ctx.signal.aborted) return await end(ctx, "cancelled");
  }
  return await end(ctx, "max_turn_requests");
}

/** What comes before a request: a halt, the steering that lands, a compaction; the outcome when the turn ends there. */
async function beforeRequest(ctx: TurnContext, first: boolean): Promise<TurnOutcome | undefined> {
  // A hook said `continue: false` (SessionStart, say): no further model step.
  if (ctx.hooks?.halted() !== undefined) return await end(ctx, "end_turn");
  await landSteering(ctx);
  // A request past the compaction threshold is made smaller first; a PreCompact hook that blocks ends the turn.
  const blocked = await ctx.window?.beforeRequest(first);
  if (ctx.signal.aborted) return await end(ctx, "cancelled");
  if (blocked !== undefined) return await end(ctx, "end_turn");
  return undefined;
}

/**
 * One model step, streamed, validated and recorded (`step_ended`, then its usage): the calls it
 * accepted and why it stopped, or the turn's outcome when the step failed or was cancelled.
 */
async function modelStep(
  ctx: TurnContext,
): Promise<{ outcome: TurnOutcome } | { calls: AcceptedCall[]; stopReason: ProviderStopReason }> {
  const stepId = mintId("step");
  const result = await streamStep(ctx, stepId);
  const step = { kind: "step_ended", turnId: ctx.turnId, stepId, model: ctx.model } as const;
  if (!result.ok) {
    await ctx.record({
      ...step,
      outcome: result.cancelled ? "cancelled" : "failed",
      ...(result.cancelled ? {} : { error: result.error }),
      calls: [],
    });
    await recordUsage(ctx, stepId, result.usage);
    if (result.cancelled) return { outcome: await end(ctx, "cancelled") };
    return { outcome: await fail(ctx, `The model provider failed: ${result.error}`) };
  }
  const validation = validateStep(result.calls, ctx.state.openProviderIds());
  if (!validation.ok) {
    await ctx.record({ ...step, outcome: "failed", error: validation.error, calls: [] });
    await recordUsage(ctx, stepId, result.usage);
    return { outcome: await fail(ctx, `The model's reply was rejected: ${validation.error}`) };
  }
  // A reply cut off by the token limit may hold half-written calls: none of them is accepted.
  const calls = result.stopReason === "max_tokens" ? [] : validation.calls;
  await ctx.record({
    ...step,
    outcome: "completed",
    stopReason: result.stopReason,
    calls,
    ...defined({ continuity: result.continuity }),
  });
  await recordUsage(ctx, stepId, result.usage);
  return { calls, stopReason: result.stopReason };
}

/**
 * A reply without calls: the turn ends (its outcome), unless a Stop hook blocks the end or
 * steering waits for the model, when another step follows (undefined).
 */
async function endOfReply(
  ctx: TurnContext,
  stopReason: ProviderStopReason,
  stopBlocks: { count: number },
): Promise<TurnOutcome | undefined> {
  if (ctx.signal.aborted) return await end(ctx, "cancelled");
  if (stopReason !== "max_tokens" && stopReason !== "refusal" && ctx.hooks && ctx.hooks.halted() === undefined) {
    const goOn = await askStopHooks(ctx, ctx.hooks, stopBlocks);
    if (ctx.signal.aborted) return await end(ctx, "cancelled");
    if (goOn) return undefined;
  }
  if (stopReason === "max_tokens" || stopReason === "refusal") return await end(ctx, stopReason);
  // Steering sent while this step streamed: one more step gives it to the model.
  if (ctx.steering?.holdsPending()) return undefined;
  return await end(ctx, "end_turn");
}

/** Whether the Stop hooks keep the turn going: a block counts, and the STOP_HOOK_BLOCK_CAP-th is overridden (with a notice). */
async function askStopHooks(
  ctx: TurnContext,
  hooks: NonNullable<TurnContext["hooks"]>,
  stopBlocks: { count: number },
): Promise<boolean> {
  const overrideBlock = stopBlocks.count + 1 >= STOP_HOOK_BLOCK_CAP;
  const goOn = await hooks.stop(
    { stopHookActive: stopBlocks.count > 0, lastAssistantMessage: lastAnswer(ctx), overrideBlock },
    ctx.signal,
  );
  if (ctx.signal.aborted || !goOn) return false;
  stopBlocks.count++;
  if (stopBlocks.count < STOP_HOOK_BLOCK_CAP) return true;
  await ctx.record({
    kind: "notice_shown",
    messageId: mintId("msg"),
    severity: "warning",
    title: `A Stop hook blocked the end of the turn ${stopBlocks.count} times in a row; the turn ends anyway`,
  });
  return false;
}

/**
 * The model and thought level of the next request: those of the commands acting in the turn
 * (their recorded `command_activated` facts), else the session's. A model whose provider this
 * process no longer has keeps the session's (the step records the model it used).
 */
function actingCommands(ctx: TurnContext, session: Pick<TurnContext, "model" | "provider" | "thoughtLevel">): void {
  const wanted = turnSettings(ctx.state.activeCommands, session);
  const same = wanted.model.provider === session.model.provider && wanted.model.model === session.model.model;
  const provider = same ? session.provider : ctx.providerFor?.(wanted.model);
  ctx.model = provider ? wanted.model : session.model;
  ctx.provider = provider ?? session.provider;
  ctx.thoughtLevel = wanted.thoughtLevel;
}

/** Records each steering text waiting for the turn (a user message at this point), before the step that is given it. */
async function landSteering(ctx: TurnContext): Promise<void> {
  for (const blocks of ctx.steering?.take() ?? []) {
    const withheld = withheldBlocks(ctx.state, blocks);
    await ctx.record({
      kind: "steering_received",
      turnId: ctx.turnId,
      messageId: mintId("msg"),
      blocks,
      ...(withheld.length ? { withheld } : {}),
    });
  }
}

async function recordUsage(
  ctx: TurnContext,
  stepId: string,
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number } | undefined,
): Promise<void> {
  if (!usage) return;
  const cost = ctx.provider.cost?.(ctx.model.model, usage);
  const sessionCost = addCost(ctx.state.sessionCost, cost);
  const used = usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) + usage.outputTokens;
  await ctx.record({
    kind: "usage_recorded",
    stepId,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    ...defined({ cacheReadTokens: usage.cacheReadTokens, cacheWriteTokens: usage.cacheWriteTokens }),
    used,
    size: ctx.provider.contextWindow(ctx.model.model),
    ...defined({ cost, sessionCost }),
  });
}

async function end(ctx: TurnContext, stopReason: StopReason): Promise<TurnOutcome> {
  await ctx.record({
    kind: "turn_ended",
    turnId: ctx.turnId,
    outcome: "completed",
    stopReason,
    ...(stopReason === "refusal" ? { retracted: true } : {}),
  });
  return { ok: true, stopReason };
}

async function fail(ctx: TurnContext, error: string): Promise<TurnOutcome> {
  await ctx.record({ kind: "notice_shown", messageId: mintId("msg"), severity: "error", title: error });
  await ctx.hooks?.stopFailure(error, lastAnswer(ctx));
  await ctx.record({ kind: "turn_ended", turnId: ctx.turnId, outcome: "failed", error });
  return { ok: false, error };
}

/** The answer text of the model's last step (what Stop hooks read as `last_assistant_message`). */
export function lastAnswer(ctx: Pick<TurnContext, "messages">): string {
  const messages = ctx.messages();
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "assistant") return m.text;
  }
  return "";
}
