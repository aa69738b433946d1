/**
 * Runs a session's hooks: reads the configuration again when asked (never in the middle of a
 * turn), runs an event's matching handlers and journals the outcome, once when the handlers start
 * and once when they have all settled (two revisions of one outcome), before the engine acts on
 * it. What does not run as configured is reported as a notice.
 */
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import type { Fact, FactOf } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { mintId } from "../ids.ts";
import type { Tool } from "../tools/tool.ts";
import { runningRun } from "./classify.ts";
import { configNotices } from "./config-notices.ts";
import { loadHookConfig, selectHandlers, skillHandlers, type HookConfig } from "./config.ts";
import type { HookEventName } from "./events.ts";
import { payloadOf, type CommonFields } from "./payload.ts";
import { resolve, type Resolution } from "./resolve.ts";
import { runHandlers } from "./run-handlers.ts";
import type { HookSettings } from "./settings.ts";
import { isTrusted } from "./trust.ts";
import { defined } from "../../shared/defined.ts";

/** What the hooks use of their session. */
export type SessionHooksHost = {
  sessionId: string;
  state: SessionStateFold;
  record(fact: Fact): Promise<void>;
  /** The card preview of a tool input (an edit's diff), for a rewritten input. */
  preview(tool: Tool, input: unknown): Promise<ToolCallContent[]>;
};

export type HookTurn = { turnId: string; promptId: string; halt?: string };

export type Fired = { outcomeId: string; resolution: Resolution };

export type FireOptions = {
  toolCallId?: string;
  signal?: AbortSignal;
  /** Adjusts the resolution before it is recorded (PreToolUse checks a rewrite first). */
  adjust?: (resolution: Resolution) => Resolution;
  /** No handler runs longer than this, whatever its own timeout. */
  maxTimeoutSec?: number;
  /** Variables for this event's handlers only. */
  extraEnv?: Record<string, string>;
};

const emptyConfig: HookConfig = { handlers: [], untrusted: [], problems: [] };

export class HookEngine {
  #config: HookConfig = emptyConfig;
  #noticesShown = "[]";
  /** The turn under way, whose ids every payload and outcome carries. */
  turn: HookTurn | undefined;

  constructor(
    private readonly settings: HookSettings,
    private readonly host: SessionHooksHost,
  ) {}

  /** True when `event` (with `matchValue`) has handlers in the configuration last read. */
  has(event: HookEventName, matchValue: string | undefined): boolean {
    return selectHandlers(this.#inForce(), event, matchValue).length > 0;
  }

  /** The settings files' handlers as last read, and those of the skills invoked so far (recorded: state.skillHooks). */
  #inForce(): Pick<HookConfig, "handlers"> {
    const skills = this.host.state.skillHooks;
    if (!skills?.length || this.#config.disabled) return this.#config;
    return { handlers: [...this.#config.handlers, ...skillHandlers(skills, this.#config.handlers.length)] };
  }

  /** Runs `event`'s matching handlers and journals the outcome; undefined when none matched. */
  async fire(
    event: HookEventName,
    matchValue: string | undefined,
    fields: Record<string, unknown>,
    options: FireOptions = {},
  ): Promise<Fired | undefined> {
    const selected = selectHandlers(this.#inForce(), event, matchValue).map((handler) => ({
      handler,
      hookRunId: mintId("hr"),
    }));
    if (selected.length === 0) return undefined;
    const outcomeId = mintId("ho");
    const base = {
      kind: "hook_outcome" as const,
      outcomeId,
      event,
      originSessionId: this.host.sessionId,
      ...(options.toolCallId ? { toolCallId: options.toolCallId } : {}),
      ...(this.turn ? { turnId: this.turn.turnId } : {}),
    };
    await this.host.record({
      ...base,
      messageId: mintId("msg"),
      revision: 1,
      status: "running",
      decision: "none",
      runs: selected.map(({ handler, hookRunId }) => runningRun(handler, hookRunId)),
      systemMessages: [],
    });
    const results = await runHandlers(selected, payloadOf(event, this.common(), fields), {
      env: this.settings.env,
      cwd: this.host.state.cwd,
      sessionId: this.host.sessionId,
      ...defined({
        signal: options.signal,
        graceMs: this.settings.graceMs,
        maxTimeoutSec: options.maxTimeoutSec,
        extraEnv: options.extraEnv,
      }),
    });
    const resolved = resolve(event, results);
    const resolution = options.adjust ? options.adjust(resolved) : resolved;
    const settled: FactOf<"hook_outcome"> = {
      ...base,
      messageId: mintId("msg"),
      revision: 2,
      status: "settled",
      decision: resolution.decision,
      ...defined({ reason: resolution.reason }),
      runs: resolution.runs,
      ...(resolution.rewrite
        ? {
            inputRewritten: {
              byHookId: resolution.rewrite.byHookId,
              conflictingHookIds: resolution.rewrite.conflictingHookIds,
            },
          }
        : {}),
      ...defined({ halted: resolution.halted }),
      systemMessages: resolution.systemMessages,
      ...(resolution.contexts.length > 0 ? { modelContext: resolution.contexts.join("\n") } : {}),
    };
    await this.host.record(settled);
    if (resolution.halted && this.turn) this.turn.halt ??= resolution.halted.stopReason;
    return { outcomeId, resolution };
  }

  /** The fields every hook payload carries. */
  common(): CommonFields {
    return {
      // The user-facing session: a subagent's hooks name its root (Codex parity); the outcome's
      // originSessionId names the session that fired them.
      session_id: this.host.state.parentSessionId ?? this.host.sessionId,
      transcript_path: null,
      cwd: this.host.state.cwd,
      permission_mode: this.host.state.modeId,
      ...(this.turn ? { turn_id: this.turn.turnId, prompt_id: this.turn.promptId } : {}),
      ...this.agent(),
    };
  }

  /** Inside a subagent: its id (the child session's) and type, as every hook payload carries them. */
  agent(): { agent_id: string; agent_type: string } | undefined {
    const { parentSessionId, subagentType } = this.host.state;
    if (parentSessionId === undefined) return undefined;
    return { agent_id: this.host.sessionId, agent_type: subagentType ?? "general-purpose" };
  }

  /** Reads the configuration again; shows what does not run as configured, when that changed. */
  async reload(): Promise<void> {
    const cwd = this.host.state.cwd;
    const trusted = this.settings.trustAll || isTrusted(this.settings.env, cwd);
    this.#config = loadHookConfig({ env: this.settings.env, cwd, trusted });
    const notices = configNotices(this.#config, cwd);
    const key = JSON.stringify(notices);
    if (key === this.#noticesShown) return;
    this.#noticesShown = key;
    for (const notice of notices) await this.host.record({ kind: "notice_shown", messageId: mintId("msg"), ...notice });
  }
}
