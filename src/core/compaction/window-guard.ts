/**
 * Before every model request of a turn: a request that would pass the compaction threshold is
 * made smaller first. Old tool output is pruned (oldest first, the newest kept: a recorded fact
 * the model is told of through each result's stub); when that is not enough, the conversation is
 * compacted (before the turn's first step, every turn before this one; between two steps, all of
 * it, the turn going on from the summary). A turn near the threshold is told so once.
 *
 * The size is the last step's reported usage plus an estimate of what was added since
 * (request-size.ts); a provider that can count a request exactly (`countTokens`) is asked only
 * when the estimate is near the threshold, so the common step costs no extra request.
 */
import type { Fact, ModelRef } from "../../journal/facts/index.ts";
import type { ConversationFold } from "../../replay/conversation.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { mintId } from "../ids.ts";
import type { Provider } from "../providers/types.ts";
import { blockedNotice, type CompactionHooks, runCompaction } from "./run-compaction.ts";
import { planPrune } from "./prune-plan.ts";
import { requestTokens } from "./request-size.ts";
import { thresholdTokens } from "../config/autocompact-threshold.ts";

/** Pruning frees down to this share of the threshold, so it does not run again at every step. */
const PRUNE_TARGET = 0.7;
/** A turn whose next request is past this share of the threshold is told it nears it (64% of the window at the default 80%). */
const WARN_AT = 0.8;
/** The estimate is checked with the provider's own count between these shares of the threshold. */
const COUNT_FROM = 0.9;
const COUNT_UNTIL = 1.15;

export type WindowGuardDeps = {
  turnId: string;
  state: SessionStateFold;
  conversation: ConversationFold;
  record(fact: Fact): Promise<void>;
  provider: Provider;
  model: ModelRef;
  /** The threshold's share of the model's window, in percent (config/autocompact-threshold.ts). */
  pct: number;
  hooks?: CompactionHooks;
  signal: AbortSignal;
};

export class WindowGuard {
  #warned = false;

  constructor(private readonly deps: WindowGuardDeps) {}

  /**
   * Makes the next request fit under the threshold, recording what it did. Returns why the turn
   * must end instead (a PreCompact hook blocked the compaction it needed), else undefined.
   * `firstStep`: no step of this turn has run yet.
   */
  async beforeRequest(firstStep: boolean): Promise<string | undefined> {
    const { deps } = this;
    const size = deps.provider.contextWindow(deps.model.model);
    if (!(size > 0)) return undefined;
    const threshold = thresholdTokens(size, deps.pct);
    let estimate = await this.#size(threshold);
    if (estimate < threshold) {
      if (estimate >= WARN_AT * threshold && !this.#warned) await this.#warn(estimate, size);
      return undefined;
    }
    const plan = planPrune(deps.conversation.prunable(), estimate - Math.floor(PRUNE_TARGET * threshold));
    if (plan.toolCallIds.length > 0) {
      estimate -= plan.freed;
      await deps.record({
        kind: "tool_results_pruned",
        turnId: deps.turnId,
        messageId: mintId("msg"),
        toolCallIds: plan.toolCallIds,
        freed: plan.freed,
        context: { used: estimate, size },
      });
    }
    if (estimate < threshold) return undefined;
    return await this.#compact(firstStep);
  }

  async #size(threshold: number): Promise<number> {
    const { deps } = this;
    const messages = deps.conversation.messages;
    const estimate = requestTokens({
      messages,
      system: deps.state.systemPrompt,
      tools: deps.state.modelTools(),
      usage: deps.state.contextUsage,
    });
    if (!deps.provider.countTokens || estimate < COUNT_FROM * threshold || estimate > COUNT_UNTIL * threshold)
      return estimate;
    const counted = await deps.provider
      .countTokens(
        {
          model: deps.model.model,
          system: deps.state.systemPrompt,
          messages,
          tools: deps.state.modelTools(),
          thoughtLevel: "off",
          cwd: deps.state.cwd,
        },
        deps.signal,
      )
      .catch(() => undefined);
    return counted ?? estimate;
  }

  async #warn(estimate: number, size: number): Promise<void> {
    this.#warned = true;
    const pct = (n: number) => `${Math.round((n / size) * 100)}%`;
    await this.deps.record({
      kind: "notice_shown",
      messageId: mintId("msg"),
      severity: "info",
      title: `The context is at ${pct(estimate)} of the model's window`,
      description: `at ${this.deps.pct}%, older tool output is pruned, then the conversation compacted, before the next model request`,
    });
  }

  async #compact(firstStep: boolean): Promise<string | undefined> {
    const { deps } = this;
    const messages = deps.conversation.messages;
    // Before the first step, the turn's prompt stays as it is and the turns before it are summarised.
    if (firstStep && messages.length < 2) return undefined;
    const p = {
      turnId: deps.turnId,
      state: deps.state,
      messages,
      record: deps.record,
      provider: deps.provider,
      model: deps.model,
      signal: deps.signal,
      ...(deps.hooks ? { hooks: deps.hooks } : {}),
    };
    const result = await runCompaction(
      p,
      firstStep
        ? { trigger: "auto", history: messages.slice(0, -1) }
        : { trigger: "auto", history: [...messages], midTurn: true },
    );
    if (result.outcome === "completed") this.#warned = false;
    if (result.outcome !== "blocked") return undefined;
    await deps.record(blockedNotice(result.reason));
    return result.reason;
  }
}
