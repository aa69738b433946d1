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

export type TurnOutcome = { ok: true; stopReason: StopReason } | { ok: false; error: string };

/**
 * Stop hooks that keep blocking the end of a turn are overridden: the turn ends at the
 * STOP_HOOK_BLOCK_CAP-th consecutive block (Claude Code's cap). The count is per user turn and
 * is not reset by tool calls, so a hook cannot keep a turn alive by alternating.
 */
export const STOP_HOOK_BLOCK_CAP = 8;

export async function runTurn(ctx: TurnContext): Promise<TurnOutcome> {
  let stopBlocks = 0;
  const session = { model: ctx.model, provider: ctx.provider, thoughtLevel: ctx.thoughtLevel };
  for (let step = 0; step < ctx.maxSteps; step++) {
    actingCommands(ctx, session);
    // A hook said `continue: false` (SessionStart, say): no further model step.
    if (ctx.hooks?.halted() !== undefined) return await end(ctx, "end_turn");
    await landSteering(ctx);
    // A request past the compaction threshold is made smaller first; a PreCompact hook that blocks ends the turn.
    const blocked = await ctx.window?.beforeRequest(step === 0);
    if (ctx.signal.aborted) return await end(ctx, "cancelled");
    if (blocked !== undefined) return await end(ctx, "end_turn");
    const stepId = mintId("step");
    const result = await streamStep(ctx, stepId);
    const model = ctx.model;
    if (!result.ok) {
      await ctx.record({
        kind: "step_ended",
        turnId: ctx.turnId,
        stepId,
        model,
        outcome: result.cancelled ? "cancelled" : "failed",
        ...(result.cancelled ? {} : { error: result.error }),
        calls: [],
      });
      await recordUsage(ctx, stepId, result.usage);
      if (result.cancelled) return await end(ctx, "cancelled");
      return await fail(ctx, `The model provider failed: ${result.error}`);
    }
    const validation = validateStep(result.calls, ctx.state.openProviderIds());
    if (!validation.ok) {
      await ctx.record({
        kind: "step_ended",
        turnId: ctx.turnId,
        stepId,
        model,
        outcome: "failed",
        error: validation.error,
        calls: [],
      });
      await recordUsage(ctx, stepId, result.usage);
      return await fail(ctx, `The model's reply was rejected: ${validation.error}`);
    }
    // A reply cut off by the token limit may hold half-written calls: none of them is accepted.
    const calls = result.stopReason === "max_tokens" ? [] : validation.calls;
    await ctx.record({
      kind: "step_ended",
      turnId: ctx.turnId,
      stepId,
      model,
      outcome: "completed",
      stopReason: result.stopReason,
      calls,
      ...defined({ continuity: result.continuity }),
    });
    await recordUsage(ctx, stepId, result.usage);
    if (calls.length === 0) {
      if (ctx.signal.aborted) return await end(ctx, "cancelled");
      if (
        result.stopReason !== "max_tokens" &&
        result.stopReason !== "refusal" &&
        ctx.hooks &&
        ctx.hooks.halted() === undefined
      ) {
        const overrideBlock = stopBlocks + 1 >= STOP_HOOK_BLOCK_CAP;
        const goOn = await ctx.hooks.stop(
          { stopHookActive: stopBlocks > 0, lastAssistantMessage: lastAnswer(ctx), overrideBlock },
          ctx.signal,
        );
        if (ctx.signal.aborted) return await end(ctx, "cancelled");
        if (goOn) {
          stopBlocks++;
          if (stopBlocks < STOP_HOOK_BLOCK_CAP) continue;
          await ctx.record({
            kind: "notice_shown",
            messageId: mintId("msg"),
            severity: "warning",
            title: `A Stop hook blocked the end of the turn ${stopBlocks} times in a row; the turn ends anyway`,
          });
        }
      }
      if (result.stopReason === "max_tokens" || result.stopReason === "refusal")
        return await end(ctx, result.stopReason);
      // Steering sent while this step streamed: one more step gives it to the model.
      if (ctx.steering?.holdsPending()) continue;
      return await end(ctx, "end_turn");
    }
    await executeCalls(ctx, calls);
    if (ctx.signal.aborted) return await end(ctx, "cancelled");
  }
  return await end(ctx, "max_turn_requests");
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
