/**
 * What the turn loop and the permission gate ask of hooks. The engine fires each event at its
 * place in the loop; the implementation (src/core/hooks) runs the configured handlers and
 * journals every outcome before the engine acts on it.
 */
import type { GateHooks } from "../permissions/call-gate.ts";
import type { Tool, ToolOutcome } from "../tools/tool.ts";

export type FinishedCall = {
  toolCallId: string;
  tool: Tool;
  /** The input that ran. */
  input: unknown;
  /** The model's input, when a hook rewrote it. */
  originalInput?: unknown;
  outcome: ToolOutcome;
  durationMs: number;
  /** The call was stopped by a cancel. */
  interrupted: boolean;
};

/** The gate's hooks (PreToolUse, PermissionRequest, the permission prompt) and the turn's own. */
export interface TurnHooks extends GateHooks {
  /** PostToolUse or PostToolUseFailure, before the result is recorded. */
  postToolUse(call: FinishedCall, signal: AbortSignal): Promise<void>;
  /**
   * The model ended its turn. True when a Stop hook asks it to go on (its reason is then in the
   * model's context); false to end the turn. With `overrideBlock` (the cap of consecutive blocks
   * is reached) a block is recorded but not honoured: the model is not given its reason.
   */
  stop(
    check: { stopHookActive: boolean; lastAssistantMessage: string; overrideBlock: boolean },
    signal: AbortSignal,
  ): Promise<boolean>;
  /** The turn failed (StopFailure; observation only). */
  stopFailure(error: string, lastAssistantMessage: string): Promise<void>;
  /** Why a hook stopped the turn (`continue: false`), if one did. */
  halted(): string | undefined;
  /** The file SessionStart hooks wrote variables to (`CLAUDE_ENV_FILE`), for Bash to source; undefined when empty. */
  envFile(): string | undefined;
}
