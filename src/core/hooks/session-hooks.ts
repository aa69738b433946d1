/**
 * A session's hooks: fires each event at its place in the loop, journals every outcome (once
 * when its handlers start, once when they have all settled, as two revisions of one outcome)
 * before the engine acts on it, and tells the host about the session's lifecycle. The
 * configuration is read again at the start of every turn (never in the middle of one), and what
 * does not run as configured is reported as a notice.
 */
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import type { Fact, FactOf, StoredFact } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { mintId } from "../ids.ts";
import type { HookVerdict } from "../permissions/decide.ts";
import { parseInput } from "../tools/registry.ts";
import type { Tool } from "../tools/tool.ts";
import type { GateRequest } from "../turn/call-gate.ts";
import type { FinishedCall, PreToolUseResult, TurnHooks } from "../turn/turn-hooks.ts";
import { runningRun } from "./classify.ts";
import { configNotices } from "./config-notices.ts";
import { loadHookConfig, selectHandlers, type HookConfig } from "./config.ts";
import type { HookEventName } from "./events.ts";
import { frameContext, CONTEXT_CAP } from "./framing.ts";
import { commandDeliverer } from "./notify/command-deliverer.ts";
import { LifecycleNotifier } from "./notify/lifecycle-notifier.ts";
import { payloadOf, type CommonFields } from "./payload.ts";
import { resolve, type Resolution } from "./resolve.ts";
import { runHandlers } from "./run-handlers.ts";
import { envFileHasContent, envFilePath, prepareEnvFile } from "./env-file.ts";
import { SESSION_END_CAP_SEC, type HookSettings } from "./settings.ts";
import { isTrusted } from "./trust.ts";

/** What the hooks use of their session. */
export type SessionHooksHost = {
  sessionId: string;
  state: SessionStateFold;
  record(fact: Fact): Promise<void>;
  /** The card preview of a tool input (an edit's diff), for a rewritten input. */
  preview(tool: Tool, input: unknown): Promise<ToolCallContent[]>;
};

type Turn = { turnId: string; promptId: string; halt?: string };

type Fired = { outcomeId: string; resolution: Resolution };

type FireOptions = {
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

export class SessionHooks implements TurnHooks {
  #config: HookConfig = emptyConfig;
  #noticesShown = "[]";
  #turn: Turn | undefined;
  #started = false;
  #envFile: string | undefined;
  /** The model of the turn under way, as hooks are told it. */
  #model = "";
  #notifier: LifecycleNotifier | undefined;

  constructor(private readonly settings: HookSettings, private readonly host: SessionHooksHost) {}

  /**
   * A turn starts (its prompt is recorded): the configuration is read again, the host is told
   * the session is busy, SessionStart runs the first time, then UserPromptSubmit. Returns why
   * the prompt was blocked, if it was.
   */
  async beginTurn(turn: { turnId: string; promptId: string; prompt: string; model: string }, signal: AbortSignal): Promise<string | undefined> {
    this.#turn = { turnId: turn.turnId, promptId: turn.promptId };
    await this.#reload();
    const agent = this.#agent();
    if (agent) {
      // A subagent's turn: SubagentStart, in place of SessionStart and UserPromptSubmit.
      await this.#fire("SubagentStart", agent.agent_type, {}, { signal });
      return undefined;
    }
    this.#notify("UserPromptSubmit", { prompt: turn.prompt });
    this.#model = turn.model;
    if (!this.#started) {
      this.#started = true;
      await this.#sessionStart(this.host.state.prompts > 1 ? "resume" : "startup", signal);
    }
    const fired = await this.#fire("UserPromptSubmit", undefined, { prompt: turn.prompt }, { signal });
    return fired?.resolution.decision === "block" ? (fired.resolution.reason ?? "blocked by a UserPromptSubmit hook") : undefined;
  }

  /**
   * A compaction completed: SessionStart runs again with `source: "compact"` (Claude Code's), so
   * hooks can give back context the summary may have lost; it goes with the turn's prompt.
   */
  async compacted(signal: AbortSignal): Promise<void> {
    if (this.#agent()) return;
    await this.#sessionStart("compact", signal);
  }

  async #sessionStart(source: "startup" | "resume" | "compact", signal: AbortSignal): Promise<void> {
    // The env file is made only for hooks that will run: a session without them leaves none behind.
    if (selectHandlers(this.#config, "SessionStart", source).length === 0) return;
    await this.#fire("SessionStart", source, { source, model: this.#model }, { signal, extraEnv: { CLAUDE_ENV_FILE: this.#envFilePrepared() } });
  }

  /** The turn has ended (recorded): the host is told the session is done. */
  endTurn(outcome: { failed?: string; lastAssistantMessage: string }): void {
    if (outcome.failed !== undefined) {
      this.#notify("StopFailure", { error: "unknown", error_details: outcome.failed, last_assistant_message: outcome.lastAssistantMessage });
    } else {
      this.#notify("Stop", { stop_hook_active: false, last_assistant_message: outcome.lastAssistantMessage });
    }
    this.#turn = undefined;
  }

  async preToolUse(request: GateRequest): Promise<PreToolUseResult> {
    const { tool, toolCallId, signal } = request;
    let input = request.input;
    const fired = await this.#fire("PreToolUse", tool.name, toolFields(request), {
      toolCallId,
      signal,
      adjust: (r) => {
        if (!r.rewrite || r.decision === "deny") return r;
        const parsed = parseInput(tool, r.rewrite.input);
        if (parsed.ok) {
          input = parsed.input;
          return r;
        }
        const { rewrite: _dropped, ...rest } = r;
        return { ...rest, decision: "deny", reason: `a hook rewrote the input into one ${tool.name} does not accept: ${parsed.message}` };
      },
    });
    if (!fired) return { input: request.input };
    const { resolution, outcomeId } = fired;
    if (input !== request.input) {
      await this.host.record({
        kind: "tool_input_rewritten",
        toolCallId,
        outcomeId,
        rawInput: input,
        title: tool.title(input),
        locations: tool.locations(input),
        content: await this.host.preview(tool, input).catch(() => []),
      });
    }
    const verdict = verdictOf(resolution, "PreToolUse");
    return { input, ...(verdict ? { verdict } : {}) };
  }

  async permissionRequest(request: GateRequest): Promise<HookVerdict | undefined> {
    const fired = await this.#fire("PermissionRequest", request.tool.name, { ...toolFields(request), permission_suggestions: [] }, {
      toolCallId: request.toolCallId,
      signal: request.signal,
    });
    return fired ? verdictOf(fired.resolution, "PermissionRequest") : undefined;
  }

  async permissionPrompt(request: GateRequest): Promise<void> {
    this.#notify("PermissionRequest", toolFields(request));
    const message = `verbatim needs your permission to use ${request.tool.name}`;
    await this.#fire("Notification", "permission_prompt", { message, title: "Permission needed", notification_type: "permission_prompt" }, {
      toolCallId: request.toolCallId,
      signal: request.signal,
    });
  }

  async postToolUse(call: FinishedCall, signal: AbortSignal): Promise<void> {
    const { tool, toolCallId, outcome } = call;
    const common = { tool_name: tool.name, tool_input: call.input, tool_use_id: toolCallId, duration_ms: call.durationMs };
    if (outcome.status === "completed") {
      await this.#fire("PostToolUse", tool.name, {
        ...common,
        tool_response: outcome.rawOutput ?? { output: outcome.result.text },
        ...(call.originalInput !== undefined ? { original_tool_input: call.originalInput } : {}),
      }, { toolCallId, signal });
    } else {
      await this.#fire("PostToolUseFailure", tool.name, {
        ...common,
        error: outcome.result.text.slice(0, CONTEXT_CAP),
        is_interrupt: call.interrupted,
      }, { toolCallId, signal });
    }
  }

  async stop(check: { stopHookActive: boolean; lastAssistantMessage: string; overrideBlock: boolean }, signal: AbortSignal): Promise<boolean> {
    const agent = this.#agent();
    const event = agent ? "SubagentStop" : "Stop";
    const fields = { stop_hook_active: check.stopHookActive, last_assistant_message: check.lastAssistantMessage, ...(agent ? { agent_transcript_path: null } : {}) };
    const fired = await this.#fire(event, agent?.agent_type, fields, {
      signal,
      // Past the cap a block is recorded as it was given, but the turn ends: the model is not given the reason.
      adjust: (r) => (check.overrideBlock && r.decision === "block" ? { ...r, contexts: [], reason: `${r.reason ?? "blocked"} (overridden: too many blocks in a row)` } : r),
    });
    return fired?.resolution.decision === "block" && !fired.resolution.halted;
  }

  async stopFailure(error: string, lastAssistantMessage: string): Promise<void> {
    await this.#fire("StopFailure", "unknown", { error: "unknown", error_details: error, last_assistant_message: lastAssistantMessage });
  }

  halted(): string | undefined {
    return this.#turn?.halt;
  }

  envFile(): string | undefined {
    return this.#envFile && envFileHasContent(this.#envFile) ? this.#envFile : undefined;
  }

  /** The session's env file, created private (and empty) before SessionStart hooks get its path. */
  #envFilePrepared(): string {
    this.#envFile ??= envFilePath(this.settings.env, this.host.sessionId);
    prepareEnvFile(this.#envFile);
    return this.#envFile;
  }

  /**
   * The session closes: SessionEnd (if the session started in this process; a subagent's
   * session ends with SubagentStop instead), then the host's notifications stop.
   */
  async close(reason = "other"): Promise<void> {
    if (this.#started && !this.#agent()) {
      await this.#fire("SessionEnd", reason, { reason }, { maxTimeoutSec: this.settings.sessionEndCapSec ?? SESSION_END_CAP_SEC });
    }
    await this.#notifier?.close();
  }

  /** Runs `event`'s matching handlers and journals the outcome; undefined when none matched. */
  async #fire(event: HookEventName, matchValue: string | undefined, fields: Record<string, unknown>, options: FireOptions = {}): Promise<Fired | undefined> {
    const selected = selectHandlers(this.#config, event, matchValue).map((handler) => ({ handler, hookRunId: mintId("hr") }));
    if (selected.length === 0) return undefined;
    const outcomeId = mintId("ho");
    const base = {
      kind: "hook_outcome" as const,
      outcomeId,
      event,
      originSessionId: this.host.sessionId,
      ...(options.toolCallId ? { toolCallId: options.toolCallId } : {}),
      ...(this.#turn ? { turnId: this.#turn.turnId } : {}),
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
    const results = await runHandlers(selected, payloadOf(event, this.#common(), fields), {
      env: this.settings.env,
      cwd: this.host.state.cwd,
      sessionId: this.host.sessionId,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(this.settings.graceMs !== undefined ? { graceMs: this.settings.graceMs } : {}),
      ...(options.maxTimeoutSec !== undefined ? { maxTimeoutSec: options.maxTimeoutSec } : {}),
      ...(options.extraEnv ? { extraEnv: options.extraEnv } : {}),
    });
    const resolved = resolve(event, results);
    const resolution = options.adjust ? options.adjust(resolved) : resolved;
    const settled: FactOf<"hook_outcome"> = {
      ...base,
      messageId: mintId("msg"),
      revision: 2,
      status: "settled",
      decision: resolution.decision,
      ...(resolution.reason !== undefined ? { reason: resolution.reason } : {}),
      runs: resolution.runs,
      ...(resolution.rewrite ? { inputRewritten: { byHookId: resolution.rewrite.byHookId, conflictingHookIds: resolution.rewrite.conflictingHookIds } } : {}),
      ...(resolution.halted ? { halted: resolution.halted } : {}),
      systemMessages: resolution.systemMessages,
      ...(resolution.contexts.length > 0 ? { modelContext: resolution.contexts.join("\n") } : {}),
    };
    await this.host.record(settled);
    if (resolution.halted && this.#turn) this.#turn.halt ??= resolution.halted.stopReason;
    return { outcomeId, resolution };
  }

  #common(): CommonFields {
    return {
      // The user-facing session: a subagent's hooks name its root (Codex parity); the outcome's
      // originSessionId names the session that fired them.
      session_id: this.host.state.parentSessionId ?? this.host.sessionId,
      transcript_path: null,
      cwd: this.host.state.cwd,
      permission_mode: this.host.state.modeId,
      ...(this.#turn ? { turn_id: this.#turn.turnId, prompt_id: this.#turn.promptId } : {}),
      ...this.#agent(),
    };
  }

  /** Inside a subagent: its id (the child session's) and type, as every hook payload carries them. */
  #agent(): { agent_id: string; agent_type: string } | undefined {
    const { parentSessionId, subagentType } = this.host.state;
    if (parentSessionId === undefined) return undefined;
    return { agent_id: this.host.sessionId, agent_type: subagentType ?? "general-purpose" };
  }

  /** Reads the configuration again; shows what does not run as configured, when that changed. */
  async #reload(): Promise<void> {
    const cwd = this.host.state.cwd;
    const trusted = this.settings.trustAll || isTrusted(this.settings.env, cwd);
    this.#config = loadHookConfig({ env: this.settings.env, cwd, trusted });
    const notices = configNotices(this.#config, cwd);
    const key = JSON.stringify(notices);
    if (key === this.#noticesShown) return;
    this.#noticesShown = key;
    for (const notice of notices) await this.host.record({ kind: "notice_shown", messageId: mintId("msg"), ...notice });
  }

  /** A lifecycle event for the host's notify command (none configured: nothing happens). */
  #notify(event: "UserPromptSubmit" | "PermissionRequest" | "Stop" | "StopFailure", fields: Record<string, unknown>): void {
    const command = this.settings.notifyCommand;
    // Only the user-facing session tells the host its state: a subagent never relabels its root.
    if (!command || this.host.state.parentSessionId !== undefined) return;
    this.#notifier ??= new LifecycleNotifier(commandDeliverer(command, { cwd: this.host.state.cwd, env: this.settings.env }));
    this.#notifier.emit(payloadOf(event, this.#common(), fields));
  }
}

function toolFields(request: GateRequest): Record<string, unknown> {
  return { tool_name: request.tool.name, tool_input: request.input, tool_use_id: request.toolCallId };
}

/** The permission verdict an outcome gives, with the reason framed for the model. */
function verdictOf(resolution: Resolution, event: "PreToolUse" | "PermissionRequest"): HookVerdict | undefined {
  const { decision, reason } = resolution;
  if (decision !== "allow" && decision !== "deny" && decision !== "ask") return undefined;
  return {
    decision,
    ...(reason !== undefined ? { reason, modelReason: frameContext(`${event} hooks`, reason) } : {}),
  };
}
