/**
 * One turn on a session, from its prompt to its end: a turn a crash left open is recovered, the
 * MCP tools and slash commands are settled, the prompt (and a first title, and the files it
 * links to, read) recorded, the UserPromptSubmit hooks asked, then a slash command, a compaction where one is due, and the
 * model's steps (turn/run-turn.ts) with what the session gives them. The session runtime keeps
 * the one turn slot and the journal writer; this is what happens inside the slot.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { Fact, ModelRef, PromptFrom } from "../../journal/facts/index.ts";
import type { ConversationFold } from "../../replay/conversation.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import type { ConfigValues } from "../config/config-options.ts";
import { formatModelRef } from "../config/model-ref.ts";
import type { SessionHooks } from "../hooks/session-hooks.ts";
import { mintId } from "../ids.ts";
import { readOnlyGate } from "../permissions/call-gate.ts";
import type { ProviderCatalog } from "../providers/catalog.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import { commandEnvironment } from "../tools/shell/command-env.ts";
import type { SubagentLauncher } from "../tools/subagent-launcher.ts";
import { lastAnswer, runTurn, type TurnOutcome } from "../turn/run-turn.ts";
import { compactCommand, recordInvocation } from "./commands-and-compaction.ts";
import type { CompactionRun } from "../compaction/run-compaction.ts";
import { readPromptLinks } from "./prompt-links.ts";
import { WindowGuard } from "../compaction/window-guard.ts";
import { DEFAULT_AUTOCOMPACT_PCT } from "../config/autocompact-threshold.ts";
import { contextReport } from "../commands/context-report.ts";
import { commandFiles, type UserCommand } from "../commands/command-files.ts";
import { activationOf, turnSettings } from "../commands/activation.ts";
import type { InlineRunner } from "../commands/shell-inlines.ts";
import { commandPlace } from "./command-place.ts";
import { recoveryFact } from "./recovery.ts";
import { syncSettings } from "./permission-settings-sync.ts";
import { askWorkspaceTrust } from "./workspace-trust.ts";
import { readDenial, withheldBlocks } from "../permissions/rules-in-force.ts";
import type { JobControl } from "../tools/tool.ts";
import type { SessionTooling } from "./session-tooling.ts";
import type { EngineDeps, SessionIo } from "./session-types.ts";
import { titleFrom } from "./title.ts";
import type { TurnSteering } from "../turn/turn-context.ts";
import { defined } from "../../shared/defined.ts";

/** What a turn takes from its session (the runtime gives it; see session-runtime.ts). */
export type TurnSession = {
  readonly sessionId: string;
  readonly state: SessionStateFold;
  readonly deps: EngineDeps;
  readonly io: SessionIo;
  /** The built-in tools the session offers. */
  readonly tools: ToolRegistry;
  readonly tooling: SessionTooling;
  readonly hooks: SessionHooks | undefined;
  /** The secret values of the session's MCP servers, kept from the model's commands. */
  readonly mcpSecrets: string[];
  /** The catalog of the session's workspace. */
  catalog(): ProviderCatalog;
  /** Appends a fact to the journal, then shows it. */
  record(fact: Fact): Promise<void>;
  /** Takes the session's lease if this process does not hold it yet. */
  ensureLease(): Promise<void>;
  /** Hands streamed chunks recorded so far over to be committed. */
  pace(): void;
  /** The model context, built from the journal the first time a restored session needs it. */
  conversation(): Promise<ConversationFold>;
  configValues(): ConfigValues;
  /** The directories file tools may use. */
  roots(): string[];
  /** Starts subagents for `Task` calls (a top-level session's turns are given it). */
  subagents(): SubagentLauncher;
  /** Switches the session's mode (recorded, shown). */
  setMode(modeId: string): Promise<void>;
  /** Steering texts sent while a turn runs (a top-level session's turns are given it). */
  readonly steering?: TurnSteering;
  /** The session's background jobs (a top-level session's turns are given them). */
  readonly jobs?: JobControl;
  /** The forked skill a subagent's session runs for (`context: fork`): it acts in the turn as a typed command does. */
  forkedCommand?: UserCommand;
};

/** How a turn is cancelled: its signal, and the way to cancel it from inside (TurnContext.cancel). */
export type TurnCancel = { signal: AbortSignal; cancel(): void };

/**
 * Where a turn's prompt came from: a controller's inbox (`from`, with `gone`: why its controller no
 * longer wants it run, asked when its turn is about to start), or a steering text sent while the
 * session was idle.
 */
export type PromptOrigin = { from?: PromptFrom; steered?: true; gone?: () => Promise<string | undefined> };

/** Runs one turn on `session` for a prompt of `blocks`, until it ends (or `turn.signal` cancels it). */
export async function runSessionTurn(
  session: TurnSession,
  blocks: ContentBlock[],
  turn: TurnCancel,
  { from, steered }: PromptOrigin = {},
): Promise<TurnOutcome> {
  await session.ensureLease();
  const conversation = await session.conversation();
  if (session.state.needsRecovery()) await session.record(recoveryFact(session.state));
  await syncSettings(session, session.deps.hooks);
  await session.tooling.settle();
  const turnId = mintId("turn");
  const promptId = mintId("msg");
  const withheld = withheldBlocks(session.state, blocks);
  await session.record({
    kind: "prompt_received",
    turnId,
    messageId: promptId,
    blocks,
    ...defined({ from, steered }),
    ...(withheld.length ? { withheld } : {}),
  });
  if (session.state.title === undefined) await session.record({ kind: "title_set", title: titleFrom(blocks) });
  // A link the session's Read deny rules refuse is not read, as a Read call of it would be refused.
  const denied = readDenial(session.state);
  const mayRead = (path: string) => {
    const rule = denied(path);
    return rule === undefined ? undefined : `a deny rule refuses reading it (${rule})`;
  };
  for (const link of await readPromptLinks(blocks, session.roots(), session.io.host, mayRead))
    await session.record({ kind: "prompt_link_read", turnId, messageId: mintId("msg"), ...link });
  // Trusted now: the project's rules are read again, so this turn already decides by them.
  if (await askWorkspaceTrust(session, turn.signal)) await syncSettings(session, session.deps.hooks);
  const outcome = await turnAfterPrompt(session, turnId, promptId, blocks, turn, conversation);
  session.hooks?.endTurn({
    ...(outcome.ok ? {} : { failed: outcome.error }),
    lastAssistantMessage: lastAnswer({ messages: () => conversation.messages }),
  });
  return outcome;
}

/** After the prompt is recorded: a command's activation, the UserPromptSubmit hooks, then `/context`, `/compact` or the model's steps. */
async function turnAfterPrompt(
  session: TurnSession,
  turnId: string,
  promptId: string,
  blocks: ContentBlock[],
  turn: TurnCancel,
  conversation: ConversationFold,
): Promise<TurnOutcome> {
  const invocation = await recordInvocation(
    turnId,
    blocks,
    session.state,
    (fact) => session.record(fact),
    inlineRunner(session, turn.signal),
  );
  const { model, thoughtLevel } = session.configValues();
  const activate = commandActivation(session, turnId, model);
  const typed = invocation?.kind === "prompt" && !invocation.forked ? invocation.command : session.forkedCommand;
  if (typed) await activate(typed);
  // A typed command's model is the turn's from its first request: hooks are told it, compaction measures against its window.
  const settings = turnSettings(session.state.activeCommands, { model, thoughtLevel });
  const blocked = await promptHooks(session, turnId, promptId, blocks, settings.model, turn.signal);
  if (blocked) return blocked;
  if (invocation?.kind === "context") return await reportContext(session, turnId, conversation);
  const provider = session.catalog().provider(model);
  if (!provider) return await failUnconfigured(session, turnId, model);
  const hooks = session.hooks;
  const actingProvider = session.catalog().provider(settings.model);
  const prelude: CompactionRun = {
    turnId,
    state: session.state,
    messages: conversation.messages,
    record: (fact: Fact) => session.record(fact),
    provider: actingProvider ?? provider,
    model: actingProvider ? settings.model : model,
    signal: turn.signal,
    ...(hooks ? { hooks } : {}),
  };
  if (invocation?.kind === "compact") return compactCommand(prelude, invocation.arguments);
  return modelSteps(session, prelude, turn, conversation, settings.thoughtLevel, activate);
}

/** Asks the UserPromptSubmit hooks; a block (or a cancel meanwhile) ends the turn here, and is its outcome. */
async function promptHooks(
  session: TurnSession,
  turnId: string,
  promptId: string,
  blocks: ContentBlock[],
  model: ModelRef,
  signal: AbortSignal,
): Promise<TurnOutcome | undefined> {
  if (!session.hooks) return undefined;
  const prompt = blocks.map((b) => (b.type === "text" ? b.text : b.type === "resource_link" ? b.uri : "")).join("");
  const blocked = await session.hooks.beginTurn({ turnId, promptId, prompt, model: formatModelRef(model) }, signal);
  if (blocked === undefined && !signal.aborted) return undefined;
  const stopReason = signal.aborted ? "cancelled" : "end_turn";
  await session.record({ kind: "turn_ended", turnId, outcome: "completed", stopReason });
  return { ok: true, stopReason };
}

/** `/context`: the report is the turn; no model step. */
async function reportContext(
  session: TurnSession,
  turnId: string,
  conversation: ConversationFold,
): Promise<TurnOutcome> {
  await session.record(contextReport(session.state, conversation.messages, session.state.modelTools()));
  await session.record({ kind: "turn_ended", turnId, outcome: "completed", stopReason: "end_turn" });
  return { ok: true, stopReason: "end_turn" };
}

/** The session's model has no provider in this process: the turn fails, saying how to set one up. */
async function failUnconfigured(session: TurnSession, turnId: string, model: ModelRef): Promise<TurnOutcome> {
  const error = `The model ${formatModelRef(model)} is not configured in this verbatim process. ${session.catalog().setupHint}`;
  await session.record({ kind: "notice_shown", messageId: mintId("msg"), severity: "error", title: error });
  await session.record({ kind: "turn_ended", turnId, outcome: "failed", error });
  return { ok: false, error };
}

/** The model's steps (turn/run-turn.ts), with what the session gives them and a guard on the context window. */
function modelSteps(
  session: TurnSession,
  prelude: CompactionRun,
  { signal, cancel }: TurnCancel,
  conversation: ConversationFold,
  thoughtLevel: ConfigValues["thoughtLevel"],
  activate: (command: UserCommand, toolCallId?: string) => Promise<void>,
): Promise<TurnOutcome> {
  const window = new WindowGuard({
    ...prelude,
    conversation,
    pct: session.catalog().defaults().autoCompactPct ?? DEFAULT_AUTOCOMPACT_PCT,
  });
  return runTurn({
    sessionId: session.sessionId,
    turnId: prelude.turnId,
    cwd: session.state.cwd,
    roots: session.roots(),
    signal,
    cancel,
    record: (fact) => session.record(fact),
    pace: () => {
      session.pace();
      return session.io.backpressure?.();
    },
    messages: () => conversation.messages,
    state: session.state,
    system: session.state.systemPrompt,
    toolSpecs: session.state.modelTools(),
    tools: session.tools.with(session.tooling.mcpTools),
    provider: prelude.provider,
    model: prelude.model,
    thoughtLevel,
    host: session.io.host,
    commandEnv: commandEnv(session),
    gate: session.io.gate ?? readOnlyGate,
    maxSteps: session.deps.maxSteps,
    ...defined({ hooks: session.hooks }),
    ...(session.state.parentSessionId === undefined ? { subagents: session.subagents() } : {}),
    setMode: (modeId) => session.setMode(modeId),
    ...defined({ steering: session.steering, jobs: session.jobs }),
    window,
    skills: () => modelSkills(session.state),
    activateCommand: activate,
    providerFor: (ref) => session.catalog().provider(ref),
  });
}

/** The skills the model may load now: a skill with `paths` once a file they match was read (instructions/path-skills.ts). */
async function modelSkills(state: SessionStateFold): Promise<UserCommand[]> {
  const loaded = state.loadedInstructions ?? [];
  return (await commandFiles(commandPlace(state))).commands.filter(
    (c) => c.kind === "skill" && (!c.paths || !c.modelInvocable || loaded.includes(c.path)),
  );
}

/** Records what a command or skill does to the rest of turn `turnId`, when it does anything (commands/activation.ts). */
function commandActivation(session: TurnSession, turnId: string, model: ModelRef) {
  return async (command: UserCommand, toolCallId?: string): Promise<void> => {
    const fact = activationOf(command, {
      turnId,
      ...defined({ toolCallId }),
      trusted: commandPlace(session.state).trusted,
      model,
      models: session.catalog().models(),
    });
    if (fact) await session.record(fact);
  };
}

/** How a command's `` !`cmd` `` inlines run: bash in the working directory, with the model's scrubbed environment, 30 s at most. */
function inlineRunner(session: TurnSession, signal: AbortSignal): InlineRunner {
  return async (command) => {
    const child = Bun.spawn(["bash", "-c", command], {
      cwd: session.state.cwd,
      env: commandEnv(session).variables,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
    });
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
    await child.exited;
    return `${out}${err}`.slice(0, 30_000);
  };
}

/** What the model's commands run with: this process's environment without the secrets it holds. */
function commandEnv(session: TurnSession) {
  const secrets = session.catalog().secrets();
  return commandEnvironment(process.env, { names: secrets.names, values: [...secrets.values, ...session.mcpSecrets] });
}
