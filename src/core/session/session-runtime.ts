/**
 * One session in this process: its folded state and model context, its config, and the one turn
 * that may run on it (what happens inside a turn is session-turn.ts). Every fact goes through
 * `record`, to the session's journal writer (journal-writer.ts): appended to the journal first,
 * then folded, then published (shown). The runtime knows nothing about ACP wire shapes.
 */
import type { ContentBlock, SessionConfigOption } from "@agentclientprotocol/sdk";
import type { Fact, PromptFrom, StoredFact } from "../../journal/facts/index.ts";
import { ConversationFold } from "../../replay/conversation.ts";
import { SessionStateFold } from "../../replay/state.ts";
import { isRetracted } from "../../replay/retraction.ts";
import { buildConfigOptions, type ConfigValues } from "../config/config-options.ts";
import { changedConfig, configValuesOf } from "./session-config.ts";
import { log } from "../../shared/log.ts";
import { EngineError } from "../errors.ts";
import { mintId } from "../ids.ts";
import type { ProviderCatalog } from "../providers/catalog.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import { thisProcess } from "../../journal/process-identity.ts";
import { readOnlyGate } from "../permissions/call-gate.ts";
import type { TurnOutcome } from "../turn/run-turn.ts";
import { SessionHooks } from "../hooks/session-hooks.ts";
import { secretsOf, type McpServerConfig } from "../mcp/server-config.ts";
import { subagentLauncher, type ChildSession } from "../subagents/subagent-runner.ts";
import { JournalWriter } from "./journal-writer.ts";
import { SessionTooling } from "./session-tooling.ts";
import { checkCwdHere } from "./cwd-here.ts";
import { sessionStartedFact, startNotices, startValues } from "./session-started.ts";
import { agentFiles } from "../subagents/agent-files.ts";
import { commandPlace } from "./command-place.ts";
import type { ChildParams, EngineDeps, NewSessionParams, SessionIo } from "./session-types.ts";
import { runSessionTurn, type PromptOrigin, type TurnSession } from "./session-turn.ts";
import { Located } from "./rewind-index.ts";
import { rewindTo, type Rewound, type RewindTarget } from "./rewind.ts";
import { recoveryFact } from "./recovery.ts";
import { defined } from "../../shared/defined.ts";
import { serveInbox } from "./inbox-server.ts";
import { currentSettings, recordSettings } from "./permission-settings-sync.ts";
import { settingsDirectories, settingsInForce } from "../permissions/settings-rules.ts";
import { hostname } from "node:os";
import { SessionTurns, type SteerOutcome } from "./session-turns.ts";
import { SessionJobs } from "../jobs/session-jobs.ts";
import { endOrphanJobs } from "../jobs/orphan-jobs.ts";

export type { EngineDeps, NewSessionParams, SessionIo } from "./session-types.ts";

const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;

export class SessionRuntime {
  readonly state = new SessionStateFold();
  #additionalDirectories: string[] | undefined;
  #conversation: ConversationFold | undefined;
  /**
   * The messages a client is shown and the calls announced, folded from record 1 (a rewind finds
   * its point here: rewind.ts); undefined when the records before a restored state were not read.
   */
  #messages: Located | undefined = new Located();
  #closed = false;
  /** Ends the serving of the session's inbox (inbox-server.ts), started by `begin`. */
  #inbox: AbortController | undefined;
  /** The turn that runs, the prompts waiting for it, the steering on its way into it. */
  readonly #turns: SessionTurns;
  readonly #tooling: SessionTooling;
  readonly #hooks: SessionHooks | undefined;
  readonly #writer: JournalWriter;
  /** The secret values of this session's MCP servers (a subagent's: its parent's), kept from commands. */
  readonly #mcpSecrets: string[];
  /** This session as its turns take it (session-turn.ts). */
  readonly #turnSession: TurnSession;
  /** The session's background jobs, made when a top-level session first runs a turn. */
  #jobs: SessionJobs | undefined;

  private constructor(
    readonly sessionId: string,
    private readonly deps: EngineDeps,
    readonly io: SessionIo,
    /** The built-in tools this session offers. */
    private readonly tools: ToolRegistry,
    mcpServers: McpServerConfig[],
    cwd: string,
    inheritedSecrets: string[] = [],
  ) {
    this.#writer = new JournalWriter(sessionId, deps.store, {
      absorb: (record) => this.#absorb(record),
      reset: () => this.#forget(),
      publish: (record) => this.io.publish(record),
      held: () => ({ kind: "session_held", ...thisProcess(), cwd: this.state.cwd }),
    });
    this.#turns = new SessionTurns({
      sessionId,
      check: () => {
        if (this.#closed) throw new EngineError("closed", `session ${this.sessionId} is closed`);
        checkCwdHere(this.sessionId, this.state.cwd);
      },
      closed: () => this.#closed,
      begin: () => this.begin(),
      run: (blocks, abort, origin) => this.#runTurn(blocks, abort, origin),
    });
    this.#mcpSecrets = [...inheritedSecrets, ...mcpServers.flatMap(secretsOf)];
    this.#tooling = new SessionTooling(
      { state: this.state, record: (fact) => this.record(fact), recordSoon: (fact) => this.#recordSoon(fact) },
      mcpServers,
      {
        cwd,
        clientVersion: deps.agentVersion,
        connectTimeoutMs: deps.mcpConnectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS,
      },
    );
    this.#hooks = deps.hooks
      ? new SessionHooks(deps.hooks, {
          sessionId,
          state: this.state,
          record: (fact) => this.record(fact),
          preview: async (tool, input) =>
            tool.preview ? tool.preview(input, { cwd: this.state.cwd, roots: this.#roots(), host: this.io.host }) : [],
        })
      : undefined;
    this.#turnSession = {
      sessionId,
      state: this.state,
      deps,
      io,
      tools,
      tooling: this.#tooling,
      hooks: this.#hooks,
      mcpSecrets: this.#mcpSecrets,
      catalog: () => this.#catalog,
      record: (fact) => this.record(fact),
      ensureLease: () => this.#writer.ensureLease(),
      pace: () => this.#writer.pace(),
      conversation: () => this.#conversationFold(),
      configValues: () => this.configValues(),
      roots: () => this.#roots(),
      subagents: () => this.#subagents(),
      steering: this.#turns.steering,
      setMode: async (modeId) => {
        await this.setConfig("mode", modeId);
      },
    };
    Object.defineProperty(this.#turnSession, "jobs", { get: () => this.#sessionJobs(), enumerable: true });
  }

  /**
   * The session's background jobs: a subagent's commands end with its call (Claude Code ends a
   * foreground subagent's jobs with it), and CLAUDE_CODE_DISABLE_BACKGROUND_TASKS=1 turns them off.
   */
  #sessionJobs(): SessionJobs | undefined {
    if (this.state.parentSessionId !== undefined || this.#closed) return undefined;
    if (process.env.CLAUDE_CODE_DISABLE_BACKGROUND_TASKS === "1") return undefined;
    this.#jobs ??= new SessionJobs({
      sessionId: this.sessionId,
      record: (fact) => this.record(fact),
      recordInBackground: (fact) => this.#writer.recordInBackground(fact),
    });
    return this.#jobs;
  }

  /**
   * After a load with no live process holding the session: kills the process groups of the jobs
   * its dead writer left running (identified by host, pid and start time, orphan-jobs.ts), and
   * records each of those jobs ended (`interrupted`) at the session's next write, as the load
   * showed it. Loading itself never writes.
   */
  endOrphanJobs(): void {
    endOrphanJobs(this.state.openJobs.values(), (fact) => this.#writer.recordSoon(fact));
  }

  /** The catalog of this session's workspace. */
  get #catalog(): ProviderCatalog {
    return this.deps.catalogFor(this.state.cwd);
  }

  /**
   * Starts a new session: records its first fact (system prompt, tools, modes, config). A child
   * session (a subagent's) records its parent and takes the parent's model and mode.
   */
  static async create(
    deps: EngineDeps,
    io: (sessionId: string) => SessionIo,
    params: NewSessionParams,
    child?: ChildParams,
  ): Promise<SessionRuntime> {
    const catalog = deps.catalogFor(params.cwd);
    const model = child?.values.model ?? catalog.defaultModel();
    if (!model) throw new EngineError("no_provider", catalog.setupHint);
    const sessionId = mintId("ses");
    const now = new Date().toISOString();
    // The settings files are read before the first fact: their defaultMode is the mode a session starts in.
    const settings = deps.hooks ? currentSettings(deps.hooks, params.cwd) : undefined;
    const values = child?.values ?? startValues(catalog, model, settings);
    const tools = child?.tools ?? deps.tools;
    const runtime = new SessionRuntime(
      sessionId,
      deps,
      io(sessionId),
      tools,
      params.mcpServers ?? [],
      params.cwd,
      child?.mcpSecrets,
    );
    runtime.#conversation = new ConversationFold();
    const started = await sessionStartedFact(params, {
      agentVersion: deps.agentVersion,
      today: now.slice(0, 10),
      tools,
      values,
      models: catalog.models(),
      ...defined({ child }),
    });
    await runtime.#writer.create(
      {
        sessionId,
        cwd: params.cwd,
        additionalDirectories: params.additionalDirectories,
        createdAt: now,
        updatedAt: now,
        ...defined({ parentSessionId: child?.parentSessionId }),
      },
      started.fact,
    );
    if (settings) await recordSettings(runtime, settings);
    if (!child) {
      const { prompt } = started;
      for (const notice of startNotices(catalog.warnings(), prompt.skipped, prompt.cut)) await runtime.record(notice);
      // A session given no instruction file, skill, command or agent has nothing to show beyond its prompt.
      // What the model was given is recorded once the client knows the session (syncCommands, after the response).
      runtime.#tooling.startedWith(prompt.sources);
    }
    return runtime;
  }

  /**
   * Rebuilds a session from its stored facts, handing each record to `each` as it is folded
   * (load streams them to the client this way; `each` may return a promise to slow the read
   * down to the client's pace). Never writes. With `start`, the state after record `start.seq`
   * is restored by `start.restore` (from the replay cache) and `pages` must begin after it. The
   * model's conversation is folded from the facts when the session first needs it, either way.
   */
  static async restore(
    deps: EngineDeps,
    io: SessionIo,
    sessionId: string,
    pages: AsyncIterable<readonly StoredFact[]>,
    each: (record: StoredFact) => Promise<void> | undefined = () => undefined,
    mcpServers: McpServerConfig[] = [],
    start?: { seq: number; restore(state: SessionStateFold): void },
  ): Promise<SessionRuntime> {
    const first = await deps.store.info(sessionId);
    // A subagent's session never offers Task or AskUserQuestion: only top-level sessions start subagents and ask the user.
    const tools = first?.parentSessionId ? deps.tools.without(PARENT_ONLY) : deps.tools;
    const runtime = new SessionRuntime(sessionId, deps, io, tools, mcpServers, first?.cwd ?? process.cwd());
    if (start) {
      start.restore(runtime.state);
      runtime.#writer.restoredTo(start.seq);
      runtime.#messages = undefined;
    }
    for await (const page of pages) {
      for (const record of page) {
        runtime.#writer.restored(record);
        const wait = each(record);
        if (wait) await wait;
      }
    }
    return runtime;
  }

  /**
   * Starts what a session does in the background once its client knows it: its MCP servers
   * connect, and a new session records its slash commands. Idempotent. Call it after the
   * `session/new` response, after a load or resume, or let the first prompt call it.
   */
  begin(): void {
    if (this.#closed) return;
    this.#tooling.start();
    this.#serveInbox();
    if (this.#writer.leased) this.#tooling.syncCommands().catch((error: unknown) => this.#writer.fail(error));
  }

  /** A top-level session serves controllers' prompts and cancels while this process writes it. */
  #serveInbox(): void {
    if (this.#inbox || this.state.parentSessionId !== undefined) return;
    this.#inbox = new AbortController();
    void serveInbox(this.deps.store, this, this.#inbox.signal);
  }

  /** Whether this process writes the session (holds its lease) now. */
  get leased(): boolean {
    return this.#writer.leased;
  }

  /** Whether the line of prompts has room for one more (inbox-server.ts takes a controller's prompt then). */
  get acceptsPrompt(): boolean {
    return this.#turns.acceptsPrompt;
  }

  /** Whether a turn runs now (or has been handed the line and is about to). */
  get running(): boolean {
    return this.#turns.running;
  }

  /**
   * Appends a fact (taking the session's lease first if this process has not), then shows it;
   * resolves once it is shown. Streamed chunks are committed, then shown, together with the
   * chunks that follow them (group commit, see journal-writer.ts).
   */
  record(fact: Fact): Promise<void> {
    return this.#writer.record(fact);
  }

  /**
   * Runs one prompt (`from`: a controller's, taken from the session's inbox). A prompt while
   * another turn runs waits for it in the session's line (turn-line.ts), and runs once every turn
   * ahead of it has ended; a cancel meanwhile empties the line, and the prompt ends `cancelled`
   * with nothing recorded. Throws EngineError `queue_full` when the line is full.
   */
  prompt(blocks: ContentBlock[], from?: PromptFrom, gone?: () => Promise<string | undefined>): Promise<TurnOutcome> {
    return this.#turns.prompt(blocks, defined({ from, gone }));
  }

  /**
   * A steering text (`_session/steering`): into the running turn, given to the model before its
   * next step (`injected`); with no turn to take it, a turn of its own (`startedNewTurn`) unless
   * `idle` is `promptRequired` (session-turns.ts).
   */
  steer(blocks: ContentBlock[], idle: "startTurn" | "promptRequired"): SteerOutcome {
    return this.#turns.steer(blocks, idle);
  }

  /** One turn, from its prompt to its end: what the session's line of turns runs (session-turns.ts). */
  async #runTurn(blocks: ContentBlock[], abort: AbortController, origin: PromptOrigin): Promise<TurnOutcome> {
    this.#writer.reconnect();
    try {
      const cancel = () => {
        abort.abort();
        // A subagent's turn cancelled from inside (a question answered `cancelled`) cancels its parent's.
        this.io.cancelOuterTurn?.();
      };
      return await runSessionTurn(this.#turnSession, blocks, { signal: abort.signal, cancel }, origin);
    } catch (error) {
      if (this.#writer.lost) await this.#journalLost(error, abort);
      throw error;
    }
  }

  /**
   * The journal could not be reached mid-turn: the turn stops (its model and tool work are
   * cancelled, and nothing more of it is shown), and a notice says so. The notice is the one
   * thing shown before it is recorded: it is recorded first when the journal is back (the next
   * prompt reconnects), and the turn left open is closed then as after a crash (`session_recovered`).
   */
  async #journalLost(error: unknown, abort: AbortController): Promise<void> {
    abort.abort();
    await this.#writer.showUnrecorded({
      kind: "notice_shown",
      messageId: mintId("msg"),
      severity: "error",
      title: "The journal cannot be reached: the turn stopped",
      description: `${error instanceof Error ? error.message : String(error)}. Everything shown before this notice is recorded; the next prompt reconnects.`,
    });
  }

  /**
   * Cancels the running turn, if any (it then ends with `cancelled`), and every prompt waiting
   * behind it (each ends `cancelled`, never having run).
   */
  cancel(): void {
    this.#turns.cancel();
  }

  /** Waits for the running turn, if any, to settle. */
  async settled(): Promise<void> {
    await this.#turns.settled();
  }

  /** Changes a config option (recorded, shown). Returns the whole set as it now stands. */
  async setConfig(configId: string, value: string): Promise<SessionConfigOption[]> {
    if (!this.running) this.#writer.reconnect();
    const next = changedConfig(this.configValues(), configId, value, this.#catalog);
    const configOptions = buildConfigOptions(next, this.#catalog.models());
    await this.record({
      kind: "config_changed",
      configId,
      value,
      configOptions,
      ...(configId === "mode" ? { modeId: value } : {}),
    });
    return configOptions;
  }

  configValues(): ConfigValues {
    return configValuesOf(this.state);
  }

  /** The config options as they stand, listing the models this process knows. */
  currentConfigOptions(): SessionConfigOption[] {
    return buildConfigOptions(this.configValues(), this.#catalog.models());
  }

  /**
   * Cancels running work, waits for it, runs SessionEnd hooks, and gives up the session's lease.
   * Never throws: each step runs even when an earlier one failed (a full disk fails every
   * write), and a failure is logged. A lease that could not be released is taken over by the
   * next process once this one has exited.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#inbox?.abort();
    this.cancel();
    await this.settled();
    const step = async (what: string, run: () => unknown) => {
      try {
        await run();
      } catch (error) {
        log.warn(
          `session ${this.sessionId}: ${what} failed at close: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    };
    await step("stopping the background jobs", () => this.#jobs?.close());
    // One more try for what was shown while the journal could not be reached.
    this.#writer.reconnect();
    await step("journaling streamed text", () => this.#writer.flush());
    await step("the SessionEnd hooks", () => this.#hooks?.close());
    await step("closing the MCP servers", () => this.#tooling.close());
    await step("releasing the session's lease", () => this.#writer.release());
  }

  /** Records a fact now if this process writes the session, else at its first write (loading never writes). */
  #recordSoon(fact: Fact): void {
    if (this.#closed) return;
    this.#writer.recordSoon(fact);
  }

  /** The session's directories: its cwd, its additional directories, and those its permission settings add. */
  #roots(): string[] {
    const settings = settingsInForce(this.state, hostname());
    return [this.state.cwd, ...this.additionalDirectories, ...(settings ? settingsDirectories(settings) : [])];
  }

  /** The extra roots file tools may use: those recorded at the start, unless a load or resume gave others. */
  get additionalDirectories(): string[] {
    return this.#additionalDirectories ?? this.state.additionalDirectories;
  }

  /**
   * The additional roots the client activated on `session/load` or `session/resume` (ACP: the
   * complete list, none when omitted). They hold for this process; the journal keeps the list the
   * session started with, which a later load replaces again.
   */
  activateDirectories(directories: string[]): void {
    this.#additionalDirectories = directories;
  }

  /** Starts subagents as child sessions of this one, with this session's tools (but `Task` and `AskUserQuestion`), model and mode. */
  #subagents() {
    return subagentLauncher(
      {
        record: (fact) => this.record(fact),
        spawn: (kind, parentToolCallId, publish): Promise<ChildSession> =>
          SessionRuntime.create(
            this.deps,
            (sessionId) => ({
              publish,
              host: this.io.host,
              gate: this.io.childGate?.({ sessionId, parentToolCallId }) ?? readOnlyGate,
              // The user cancelled at the child's question: the turn they see is the parent's.
              cancelOuterTurn: () => this.cancel(),
            }),
            { cwd: this.state.cwd, additionalDirectories: this.additionalDirectories },
            {
              parentSessionId: this.sessionId,
              kind,
              tools: onlyListed(this.tools.with(this.#tooling.mcpTools).without(PARENT_ONLY), kind.tools),
              values: this.configValues(),
              mcpSecrets: this.#mcpSecrets,
            },
          ),
      },
      async () => (await agentFiles(commandPlace(this.state))).agents,
    );
  }

  /** The model context; built from the journal the first time a restored session needs it. */
  async #conversationFold(): Promise<ConversationFold> {
    // Read between writes, so that no record is appended (and folded without it) while it reads.
    return this.#writer.between(async () => {
      if (!this.#conversation) {
        const fold = new ConversationFold();
        // What the session's rewinds took back never reaches the model (the state knows it before the read).
        const rewound = this.state.retracted ?? [];
        for await (const page of this.deps.store.readPages(this.sessionId))
          for (const { fact, seq } of page) if (!isRetracted(rewound, seq)) fold.apply(fact);
        this.#conversation = fold;
      }
      return this.#conversation;
    });
  }

  /**
   * Forgets the folded session, for the writer to fold it again from the journal (its server lost
   * appends this process had made). In place: the turn, the tooling and the hooks hold `state`.
   * The conversation is folded again from the journal when next needed.
   */
  #forget(): void {
    Object.assign(this.state, new SessionStateFold());
    this.#conversation = undefined;
    this.#messages = new Located();
  }

  /**
   * Rewinds the session (`session/rewind`, and `session/edit_prompt` before its new prompt): a
   * running turn is cancelled first, a turn a dead process left open is closed as the next prompt
   * would close it, then the point is recorded (rewind.ts); `files`: the workspace's files too
   * (restore-step.ts).
   */
  async rewind(target: RewindTarget, options: { files?: boolean } = {}): Promise<Rewound> {
    const cancelledTurnId = this.running ? this.state.lastTurn?.turnId : undefined;
    if (this.running) {
      this.cancel();
      await this.settled();
    }
    if (this.state.needsRecovery()) await this.record(recoveryFact(this.state));
    const session = {
      sessionId: this.sessionId,
      state: this.state,
      store: this.deps.store,
      roots: [this.state.cwd, ...this.additionalDirectories],
      index: this.#messages,
      record: (fact: Fact) => this.record(fact),
      askCard: this.io.askCard,
    };
    return rewindTo(session, target, cancelledTurnId, options.files ?? false);
  }

  #absorb(record: StoredFact): void {
    this.state.apply(record.fact, record.seq);
    this.#messages?.push(record);
    // A rewind takes back what the model was given: its context is folded again from the journal when next needed.
    if (record.fact.kind === "session_rewound") this.#conversation = undefined;
    else this.#conversation?.apply(record.fact);
  }
}

/** The tools only a top-level session offers: a subagent starts no subagent, asks the user nothing, presents no plan. */
const PARENT_ONLY = ["Task", "AskUserQuestion", "ExitPlanMode"];

/** A custom subagent's tools: only those its file lists (all of them when it lists none). */
function onlyListed(tools: ToolRegistry, listed: string[] | undefined): ToolRegistry {
  if (!listed) return tools;
  return tools.without(
    tools
      .all()
      .map((t) => t.name)
      .filter((name) => !listed.includes(name)),
  );
}
