/** What a running turn needs from its session. */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { Fact, ModelRef, ToolSpec } from "../../journal/facts/index.ts";
import type { ModelMessage } from "../../replay/model-messages.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { CommandEnvironment } from "../tools/shell/command-env.ts";
import type { JobControl, ToolHost } from "../tools/tool.ts";
import type { ThoughtLevel } from "../config/thought-levels.ts";
import type { Provider } from "../providers/types.ts";
import type { UserCommand } from "../commands/command-files.ts";
import type { SubagentLauncher } from "../tools/subagent-launcher.ts";
import type { CallGate } from "../permissions/call-gate.ts";
import type { TurnHooks } from "./turn-hooks.ts";

/** Steering texts sent while the turn runs (the session's steering box: session/steering-box.ts). */
export type TurnSteering = {
  /** The texts waiting, oldest first; the box is left empty. */
  take(): ContentBlock[][];
  /**
   * At the turn's end: true when texts wait (the box stays open, the turn steps again for them);
   * otherwise closes the box at once, so no later offer is taken by a turn that has ended.
   */
  holdsPending(): boolean;
};

export type TurnContext = {
  sessionId: string;
  turnId: string;
  cwd: string;
  roots: string[];
  signal: AbortSignal;
  /**
   * Cancels the turn from inside, as a `session/cancel` does (`signal` aborts): a permission
   * question the client answered `cancelled`. In a subagent's session, the parent's turn is cancelled too.
   */
  cancel(): void;
  /** Appends a fact to the journal, then shows it. */
  record(fact: Fact): Promise<void>;
  /**
   * Backpressure: a promise to wait on before taking the provider's next event when the client
   * has not yet taken what was shown (undefined when it keeps up).
   */
  pace?(): Promise<void> | undefined;
  /** The model's context as it stands now. */
  messages(): ModelMessage[];
  state: SessionStateFold;
  system: string;
  toolSpecs: ToolSpec[];
  tools: ToolRegistry;
  /** The provider, model and thought level of the next request (a command acting in the turn may change them: run-turn.ts). */
  provider: Provider;
  model: ModelRef;
  thoughtLevel: ThoughtLevel;
  /** The provider of another model this process lists (for a command's `model`), if configured. */
  providerFor?(model: ModelRef): Provider | undefined;
  host: ToolHost;
  /** The environment the model's commands run in (secrets taken out). */
  commandEnv: CommandEnvironment;
  gate: CallGate;
  maxSteps: number;
  /** The session's hooks, when hooks are configured for this process. */
  hooks?: TurnHooks;
  /** Runs subagents for `Task` calls; absent inside a subagent. */
  subagents?: SubagentLauncher;
  /** Switches the session's mode (recorded, shown): a plan the user approves (permissions/plan-approval.ts). */
  setMode?(modeId: string): Promise<void>;
  /** Steering texts sent while the turn runs, landed before each step; absent inside a subagent. */
  steering?: TurnSteering;
  /**
   * Keeps each model request under the compaction threshold (compaction/window-guard.ts): asked
   * before every step; returns why the turn ends instead, if it must.
   */
  window?: { beforeRequest(firstStep: boolean): Promise<string | undefined> };
  /** The session's skills now, for `Skill` calls. */
  skills?(): Promise<UserCommand[]>;
  /** Records what a command or skill does to the rest of the turn (commands/activation.ts); `toolCallId`: the `Skill` call that loaded it. */
  activateCommand?(command: UserCommand, toolCallId?: string): Promise<void>;
  /** The session's background jobs; absent inside a subagent. */
  jobs?: JobControl;
};
