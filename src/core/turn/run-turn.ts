/**
 * The turn loop: model step, validation, tool calls, repeat, until the model ends its turn, a
 * limit is reached, the turn is cancelled or it fails. Every fact is recorded as it happens.
 *
 * Contract: never throws for provider or tool failures; a failed turn is an outcome, recorded
 * (`turn_ended` with the error, after a visible notice) and returned.
 */
import type { StopReason } from "@agentclientprotocol/sdk";
import { mintId } from "../ids.ts";
import { executeCalls } from "./execute-calls.ts";
import { streamStep } from "./stream-step.ts";
import type { TurnContext } from "./turn-context.ts";
import { validateStep } from "./validate-step.ts";

export type TurnOutcome = { ok: true; stopReason: StopReason } | { ok: false; error: string };

export async function runTurn(ctx: TurnContext): Promise<TurnOutcome> {
  for (let step = 0; step < ctx.maxSteps; step++) {
    const stepId = mintId("step");
    const result = await streamStep(ctx, stepId);
    const model = ctx.model;
    if (!result.ok) {
      ctx.record({ kind: "step_ended", turnId: ctx.turnId, stepId, model, outcome: result.cancelled ? "cancelled" : "failed", ...(result.cancelled ? {} : { error: result.error }), calls: [] });
      recordUsage(ctx, stepId, result.usage);
      if (result.cancelled) return end(ctx, "cancelled");
      return fail(ctx, `The model provider failed: ${result.error}`);
    }
    const validation = validateStep(result.calls, ctx.state.openProviderIds());
    if (!validation.ok) {
      ctx.record({ kind: "step_ended", turnId: ctx.turnId, stepId, model, outcome: "failed", error: validation.error, calls: [] });
      recordUsage(ctx, stepId, result.usage);
      return fail(ctx, `The model's reply was rejected: ${validation.error}`);
    }
    // A reply cut off by the token limit may hold half-written calls: none of them is accepted.
    const calls = result.stopReason === "max_tokens" ? [] : validation.calls;
    ctx.record({
      kind: "step_ended",
      turnId: ctx.turnId,
      stepId,
      model,
      outcome: "completed",
      stopReason: result.stopReason,
      calls,
      ...(result.continuity !== undefined ? { continuity: result.continuity } : {}),
    });
    recordUsage(ctx, stepId, result.usage);
    if (calls.length === 0) {
      if (ctx.signal.aborted) return end(ctx, "cancelled");
      return end(ctx, result.stopReason === "max_tokens" ? "max_tokens" : result.stopReason === "refusal" ? "refusal" : "end_turn");
    }
    await executeCalls(ctx, calls);
    if (ctx.signal.aborted) return end(ctx, "cancelled");
  }
  return end(ctx, "max_turn_requests");
}

function recordUsage(ctx: TurnContext, stepId: string, usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number } | undefined) {
  if (!usage) return;
  const cost = ctx.provider.cost?.(ctx.model.model, usage);
  const used = usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) + usage.outputTokens;
  ctx.record({
    kind: "usage_recorded",
    stepId,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    ...(usage.cacheReadTokens !== undefined ? { cacheReadTokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens !== undefined ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    used,
    size: ctx.provider.contextWindow(ctx.model.model),
    ...(cost ? { cost } : {}),
  });
}

function end(ctx: TurnContext, stopReason: StopReason): TurnOutcome {
  ctx.record({ kind: "turn_ended", turnId: ctx.turnId, outcome: "completed", stopReason });
  return { ok: true, stopReason };
}

function fail(ctx: TurnContext, error: string): TurnOutcome {
  ctx.record({ kind: "notice_shown", messageId: mintId("msg"), severity: "error", title: error });
  ctx.record({ kind: "turn_ended", turnId: ctx.turnId, outcome: "failed", error });
  return { ok: false, error };
}
