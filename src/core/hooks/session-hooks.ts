/**
 * A session's hooks at their places in the loop (TurnHooks): each event's handlers run through
 * the hook engine, which journals every outcome before the engine acts on it; the host is told
 * the session's lifecycle; SessionStart hooks get the session's env file. The configuration is
 * read again at the start of every turn (never in the middle of one).
 */
import type { HookVerdict } from "../permissions/decide.ts";
import { parseInput } from "../tools/registry.ts";
import type { GateRequest, PreToolUseResult } from "../permissions/call-gate.ts";
import type { FinishedCall, TurnHooks } from "../turn/turn-hooks.ts";
import { SessionEnvFile } from "./env-file.ts";
import { frameContext, CONTEXT_CAP } from "./framing.ts";
import { HookEngine, type SessionHooksHost } from "./hook-engine.ts";
import { HostNotifications, type HostEvent } from "./notify/host-notifications.ts";
import type { Resolution } from "./resolve.ts";
import { SESSION_END_CAP_SEC, type HookSettings } from "./settings.ts";
import { defined } from "../../shared/defined.ts";

export class SessionHooks implements TurnHooks {
  readonly #engine: HookEngine;
  readonly #host: HostNotifications;
  readonly #envFile: SessionEnvFile;
  #started = false;
  /** The model of the turn under way, as hooks are told it. */
  #model = "";

  constructor(
    private readonly settings: HookSettings,
    private readonly session: SessionHooksHost,
  ) {
    this.#engine = new HookEngine(settings, session);
    this.#host = new HostNotifications(settings, session);
    this.#envFile = new SessionEnvFile(settings.env, session.sessionId);
  }

  /**
   * A turn starts (its prompt is recorded): the configuration is read again, the host is told
   * the session is busy, SessionStart runs the first time, then UserPromptSubmit. Returns why
   * the prompt was blocked, if it was.
   */
  async beginTurn(
    turn: { turnId: string; promptId: string; prompt: string; model: string },
    signal: AbortSignal,
  ): Promise<string | undefined> {
    this.#engine.turn = { turnId: turn.turnId, promptId: turn.promptId };
    await this.#engine.reload();
    const agent = this.#engine.agent();
    if (agent) {
      // A subagent's turn: SubagentStart, in place of SessionStart and UserPromptSubmit.
      await this.#fire("SubagentStart", agent.agent_type, {}, { signal });
      return undefined;
    }
    this.#notify("UserPromptSubmit", { prompt: turn.prompt });
    this.#model = turn.model;
    if (!this.#started) {
      this.#started = true;
      await this.#sessionStart(this.session.state.prompts > 1 ? "resume" : "startup", signal);
    }
    const fired = await this.#fire("UserPromptSubmit", undefined, { prompt: turn.prompt }, { signal });
    return fired?.resolution.decision === "block"
      ? (fired.resolution.reason ?? "blocked by a UserPromptSubmit hook")
      : undefined;
  }

  /**
   * A compaction completed: SessionStart runs again with `source: "compact"` (Claude Code's), so
   * hooks can give back context the summary may have lost; it goes with the turn's prompt.
   */
  async compacted(signal: AbortSignal): Promise<void> {
    if (this.#agent()) return;
    await this.#sessionStart("compact", signal);
  }

  /**
   * A compaction is about to run: PreCompact hooks. Returns why one blocked it (the compaction is
   * then skipped), if one did.
   */
  async preCompact(
    compaction: { trigger: "manual" | "auto"; customInstructions: string },
    signal: AbortSignal,
  ): Promise<string | undefined> {
    if (this.#agent()) return undefined;
    const { trigger, customInstructions } = compaction;
    const fired = await this.#fire(
      "PreCompact",
      trigger,
      { trigger, custom_instructions: customInstructions },
      { signal },
    );
    return fired?.resolution.decision === "block"
      ? (fired.resolution.reason ?? "blocked by a PreCompact hook")
      : undefined;
  }

  /** A compaction completed: PostCompact hooks (observation only). */
  async postCompact(compaction: { trigger: "manual" | "auto"; summary: string }, signal: AbortSignal): Promise<void> {
    if (this.#agent()) return;
    const { trigger, summary } = compaction;
    await this.#fire("PostCompact", trigger, { trigger, compact_summary: summary }, { signal });
  }

  async #sessionStart(source: "startup" | "resume" | "compact", signal: AbortSignal): Promise<void> {
    // The env file is made only for hooks that will run: a session without them leaves none behind.
    if (!this.#engine.has("SessionStart", source)) return;
    await this.#fire(
      "SessionStart",
      source,
      { source, model: this.#model },
      { signal, extraEnv: { CLAUDE_ENV_FILE: this.#envFile.prepared() } },
    );
  }

  /** The turn has ended (recorded): the host is told the session is done. */
  endTurn(outcome: { failed?: string; lastAssistantMessage: string }): void {
    if (outcome.failed !== undefined) {
      this.#notify("StopFailure", {
        error: "unknown",
        error_details: outcome.failed,
        last_assistant_message: outcome.lastAssistantMessage,
      });
    } else {
      this.#notify("Stop", { stop_hook_active: false, last_assistant_message: outcome.lastAssistantMessage });
    }
    this.#engine.turn = undefined;
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
        return {
          ...rest,
          decision: "deny",
          reason: `a hook rewrote the input into one ${tool.name} does not accept: ${parsed.message}`,
        };
      },
    });
    if (!fired) return { input: request.input };
    const { resolution, outcomeId } = fired;
    if (input !== request.input) {
      await this.session.record({
        kind: "tool_input_rewritten",
        toolCallId,
        outcomeId,
        rawInput: input,
        title: tool.title(input),
        locations: tool.locations(input),
        content: await this.session.preview(tool, input).catch(() => []),
      });
    }
    const verdict = verdictOf(resolution, "PreToolUse");
    return { input, ...defined({ verdict }) };
  }

  async permissionRequest(request: GateRequest): Promise<HookVerdict | undefined> {
    const fired = await this.#fire(
      "PermissionRequest",
      request.tool.name,
      { ...toolFields(request), permission_suggestions: [] },
      {
        toolCallId: request.toolCallId,
        signal: request.signal,
      },
    );
    return fired ? verdictOf(fired.resolution, "PermissionRequest") : undefined;
  }

  async permissionPrompt(request: GateRequest): Promise<void> {
    this.#notify("PermissionRequest", toolFields(request));
    const message = `verbatim needs your permission to use ${request.tool.name}`;
    await this.#fire(
      "Notification",
      "permission_prompt",
      { message, title: "Permission needed", notification_type: "permission_prompt" },
      {
        toolCallId: request.toolCallId,
        signal: request.signal,
      },
    );
  }

  async postToolUse(call: FinishedCall, signal: AbortSignal): Promise<void> {
    const { tool, toolCallId, outcome } = call;
    const common = {
      tool_name: tool.name,
      tool_input: call.input,
      tool_use_id: toolCallId,
      duration_ms: call.durationMs,
    };
    if (outcome.status === "completed") {
      await this.#fire(
        "PostToolUse",
        tool.name,
        {
          ...common,
          tool_response: outcome.rawOutput ?? { output: outcome.result.text },
          ...defined({ original_tool_input: call.originalInput }),
        },
        { toolCallId, signal },
      );
    } else {
      await this.#fire(
        "PostToolUseFailure",
        tool.name,
        {
          ...common,
          error: outcome.result.text.slice(0, CONTEXT_CAP),
          is_interrupt: call.interrupted,
        },
        { toolCallId, signal },
      );
    }
  }

  async stop(
    check: { stopHookActive: boolean; lastAssistantMessage: string; overrideBlock: boolean },
    signal: AbortSignal,
  ): Promise<boolean> {
    const agent = this.#agent();
    const event = agent ? "SubagentStop" : "Stop";
    const fields = {
      stop_hook_active: check.stopHookActive,
      last_assistant_message: check.lastAssistantMessage,
      ...(agent ? { agent_transcript_path: null } : {}),
    };
    const fired = await this.#fire(event, agent?.agent_type, fields, {
      signal,
      // Past the cap a block is recorded as it was given, but the turn ends: the model is not given the reason.
      adjust: (r) =>
        check.overrideBlock && r.decision === "block"
          ? { ...r, contexts: [], reason: `${r.reason ?? "blocked"} (overridden: too many blocks in a row)` }
          : r,
    });
    return fired?.resolution.decision === "block" && !fired.resolution.halted;
  }

  async stopFailure(error: string, lastAssistantMessage: string): Promise<void> {
    await this.#fire("StopFailure", "unknown", {
      error: "unknown",
      error_details: error,
      last_assistant_message: lastAssistantMessage,
    });
  }

  halted(): string | undefined {
    return this.#engine.turn?.halt;
  }

  envFile(): string | undefined {
    return this.#envFile.written();
  }

  /**
   * The session closes: SessionEnd (if the session started in this process; a subagent's
   * session ends with SubagentStop instead), then the host's notifications stop.
   */
  async close(reason = "other"): Promise<void> {
    if (this.#started && !this.#engine.agent()) {
      await this.#fire(
        "SessionEnd",
        reason,
        { reason },
        { maxTimeoutSec: this.settings.sessionEndCapSec ?? SESSION_END_CAP_SEC },
      );
    }
    await this.#host.close();
  }

  #fire(...args: Parameters<HookEngine["fire"]>) {
    return this.#engine.fire(...args);
  }

  #agent() {
    return this.#engine.agent();
  }

  /** A lifecycle event for the host's notify command. */
  #notify(event: HostEvent, fields: Record<string, unknown>): void {
    this.#host.notify(event, () => this.#engine.common(), fields);
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
