/**
 * One model step: streams the provider's events, recording thinking and answer text as it is
 * shown, and collects tool calls (shown only after the whole step is validated). Retries a
 * transient failure with a visible notice when nothing was shown yet.
 */
import { mintId } from "../ids.ts";
import type { ProviderEvent, ProviderStopReason } from "../providers/types.ts";
import type { TurnContext } from "./turn-context.ts";
import { sleep } from "../../shared/sleep.ts";
import { defined } from "../../shared/defined.ts";

export type RawCall = { index: number; providerCallId: string; name: string; json: string };

export type Usage = Extract<ProviderEvent, { type: "usage" }>;

export type StepResult =
  | { ok: true; stopReason: ProviderStopReason; calls: RawCall[]; usage?: Usage; continuity?: unknown }
  | { ok: false; cancelled: boolean; error: string; usage?: Usage };

const MAX_ATTEMPTS = 4;
const BASE_DELAY_MS = 1000;
/** A provider's own `retry-after` is honoured up to this long; past it the step fails. */
const MAX_DELAY_MS = 60_000;

export async function streamStep(ctx: TurnContext, stepId: string): Promise<StepResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await attemptStep(ctx, stepId);
    if (result.kind !== "retry") return result.result;
    if (attempt >= MAX_ATTEMPTS || ctx.signal.aborted) {
      return { ok: false, cancelled: ctx.signal.aborted, error: result.error };
    }
    const delay = result.retryAfterMs ?? BASE_DELAY_MS * 2 ** (attempt - 1);
    if (delay > MAX_DELAY_MS)
      return {
        ok: false,
        cancelled: false,
        error: `${result.error} (the provider asked to wait ${Math.ceil(delay / 1000)}s)`,
      };
    await ctx.record({
      kind: "notice_shown",
      messageId: mintId("msg"),
      severity: "warning",
      title: `The model provider failed (${result.error}); retrying in ${formatDelay(delay)}`,
      description: `attempt ${attempt + 1} of ${MAX_ATTEMPTS}`,
    });
    await sleep(delay, ctx.signal);
  }
}

type Attempt = { kind: "final"; result: StepResult } | { kind: "retry"; error: string; retryAfterMs?: number };

const formatDelay = (ms: number) => (ms < 1000 ? `${ms}ms` : `${Math.round(ms / 1000)}s`);

/** What one attempt has seen so far: its two messages' ids, its calls, its usage, and whether it showed anything. */
type Progress = {
  thinkingId?: string;
  answerId?: string;
  calls: Map<number, RawCall>;
  usage?: Usage;
  shown: boolean;
};

async function attemptStep(ctx: TurnContext, stepId: string): Promise<Attempt> {
  const progress: Progress = { calls: new Map(), shown: false };
  const request = {
    model: ctx.model.model,
    system: ctx.system,
    messages: ctx.messages(),
    tools: ctx.toolSpecs,
    thoughtLevel: ctx.thoughtLevel,
    cwd: ctx.cwd,
  };
  for await (const event of ctx.provider.stream(request, ctx.signal)) {
    // A provider can stream faster than the client reads: take its next event only once the
    // client has taken what was shown, so updates never pile up in memory.
    const wait = ctx.pace?.();
    if (wait) await wait;
    const end = await takeEvent(ctx, stepId, progress, event);
    if (end) return end;
  }
  const cancelled = ctx.signal.aborted;
  return {
    kind: "final",
    result: {
      ok: false,
      cancelled,
      error: cancelled ? "cancelled" : "the provider stream ended without a final event",
    },
  };
}

/** One provider event: shown, collected into the attempt's progress, or the attempt's end. */
async function takeEvent(
  ctx: TurnContext,
  stepId: string,
  progress: Progress,
  event: ProviderEvent,
): Promise<Attempt | undefined> {
  switch (event.type) {
    case "thinking_delta":
    case "text_delta":
      await showChunk(ctx, stepId, progress, event);
      return undefined;
    case "tool_call_start":
      progress.calls.set(event.index, {
        index: event.index,
        providerCallId: event.providerCallId,
        name: event.name,
        json: "",
      });
      return undefined;
    case "tool_call_delta": {
      const call = progress.calls.get(event.index);
      if (call) call.json += event.json;
      return undefined;
    }
    case "tool_call_end":
      return undefined;
    case "usage":
      progress.usage = event;
      return undefined;
    case "notice":
      await ctx.record({
        kind: "notice_shown",
        messageId: mintId("msg"),
        severity: event.severity,
        title: event.title,
        ...(event.description ? { description: event.description } : {}),
      });
      return undefined;
    case "done":
      return {
        kind: "final",
        result: {
          ok: true,
          stopReason: event.stopReason,
          calls: [...progress.calls.values()].sort((a, b) => a.index - b.index),
          ...defined({ usage: progress.usage, continuity: event.continuity }),
        },
      };
    case "error":
      return failed(ctx, progress, event);
  }
}

/** Thinking and answer text each join one message of the step (its id made at its first chunk). */
async function showChunk(
  ctx: TurnContext,
  stepId: string,
  progress: Progress,
  event: Extract<ProviderEvent, { type: "thinking_delta" | "text_delta" }>,
): Promise<void> {
  if (!event.text) return;
  const thought = event.type === "thinking_delta";
  const messageId = thought ? (progress.thinkingId ??= mintId("msg")) : (progress.answerId ??= mintId("msg"));
  progress.shown = true;
  const stream = thought ? "thought" : "answer";
  await ctx.record({ kind: "message_chunk", stepId, messageId, stream, text: event.text });
}

/** A provider error: a cancel, a retry (transient, and nothing shown yet), or the step's failure. */
function failed(ctx: TurnContext, progress: Progress, event: Extract<ProviderEvent, { type: "error" }>): Attempt {
  const usage = progress.usage;
  if (ctx.signal.aborted)
    return {
      kind: "final",
      result: { ok: false, cancelled: true, error: "cancelled", ...defined({ usage }) },
    };
  if (event.retryable && !progress.shown) {
    return {
      kind: "retry",
      error: event.message,
      ...defined({ retryAfterMs: event.retryAfterMs }),
    };
  }
  return {
    kind: "final",
    result: { ok: false, cancelled: false, error: event.message, ...defined({ usage }) },
  };
}
