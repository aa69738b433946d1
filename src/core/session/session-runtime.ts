/**
 * One session in this process: its folded state and model context, its config, and the one turn
 * that may run on it (what happens inside a turn is session-turn.ts). Every fact goes through
 * `record`, to the session's journal writer (journal-writer.ts): appended to the journal first,
 * then folded, then published (shown). The runtime knows nothing about ACP wire shapes.
 */
import type { ContentBlock, SessionConfigOption } from "@agentclientprotocol/sdk";
import type { Fact, PromptFrom } from "../../journal/facts/index.ts";
import type { SessionRow } from "../../journal/store.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import type { ConfigValues } from "../config/config-options.ts";
import type { StoredFold } from "./stored-fold.ts";
import { configChange, configValuesOf, currentConfigOptions } from "./session-config.ts";
import { EngineError } from "../errors.ts";
import type { ProviderCatalog } from "../providers/catalog.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import { thisProcess } from "../../journal/process-identity.ts";
import type { TurnOutcome } from "../turn/run-turn.ts";
import { SessionHooks } from "../hooks/session-hooks.ts";
import { secretsOf, type McpServerConfig } from "../mcp/server-config.ts";
import { JournalWriter } from "./journal-writer.ts";
import { SessionTooling } from "./session-tooling.ts";
import { checkCwdHere } from "./cwd-here.ts";
import { sessionStart } from "./session-start.ts";
import { childSessions, PARENT_ONLY } from "./session-children.ts";
import type { ChildParams, EngineDeps, NewSessionParams, SessionIo } from "./session-types.ts";
import { runSessionTurn, type PromptOrigin, type TurnSession } from "./session-turn.ts";
import { closeParts } from "./session-close.ts";
import { SessionFolds } from "./session-folds.ts";
import { rewindSession, type Rewound, type RewindTarget } from "./rewind.ts";
import { journalLostNotice } from "./recovery.ts";
import { defined } from "../../shared/defined.ts";
import { serveInbox } from "./inbox-server.ts";
import { recordSettings } from "./permission-settings-sync.ts";
import { SessionRoots } from "./session-roots.ts";
import { SessionTurns, type SteerOutcome } from "./session-turns.ts";
import { BackgroundJobs } from "./session-background.ts";

export type { EngineDeps, NewSessionParams, SessionIo } from "./session-types.ts";

const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;

export class SessionRuntime {
  readonly #folds: SessionFolds;
  /** The session's state as its records fold it (replay/state.ts). */
  readonly state: SessionStateFold;
  readonly #roots: SessionRoots;
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
  /** The session's background jobs (session-background.ts). */
  readonly #jobs: BackgroundJobs;

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
    this.#folds = new SessionFolds(deps.store, sessionId);
    this.state = this.#folds.state;
    this.#roots = new SessionRoots(this.state);
    this.#writer = new JournalWriter(sessionId, deps.store, {
      absorb: (record) => this.#folds.absorb(record),
      reset: () => this.#folds.forget(),
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
    this.#hooks =
      deps.hooks &&
      new SessionHooks(deps.hooks, {
        sessionId,
        state: this.state,
        record: (fact) => this.record(fact),
        preview: async (tool, input) =>
          tool.preview?.(input, { cwd: this.state.cwd, roots: this.#roots.all(), host: this.io.host }) ?? [],
      });
    this.#turnSession = this.#turnSessionOf();
    this.#jobs = new BackgroundJobs({
      sessionId,
      state: this.state,
      closed: () => this.#closed,
      record: (fact) => this.record(fact),
      recordInBackground: (fact) => this.#writer.recordInBackground(fact),
      recordSoon: (fact) => this.#writer.recordSoon(fact),
    });
  }

  /** This session as its turns take it (session-turn.ts). */
  #turnSessionOf(): TurnSession {
    const jobs = () => this.#jobs.now();
    return {
      sessionId: this.sessionId,
      state: this.state,
      deps: this.deps,
      io: this.io,
      tools: this.tools,
      tooling: this.#tooling,
      hooks: this.#hooks,
      mcpSecrets: this.#mcpSecrets,
      catalog: () => this.#catalog,
      record: (fact) => this.record(fact),
      ensureLease: () => this.#writer.ensureLease(),
      pace: () => this.#writer.pace(),
      // Read between writes, so that no record is appended (and folded without it) while it reads.
      conversation: () => this.#writer.between(() => this.#folds.conversation()),
      configValues: () => this.configValues(),
      roots: () => this.#roots.all(),
      subagents: () => this.#subagents(),
      steering: this.#turns.steering,
      setMode: async (modeId) => {
        await this.setConfig("mode", modeId);
      },
      // Read at each turn: whether the session has them is session-background.ts's to say.
      get jobs() {
        return jobs();
      },
    };
  }

  /**
   * After a load with no live process holding the session: the jobs its dead writer left running
   * are killed, and recorded ended at the session's next write (session-background.ts).
   */
  endOrphanJobs(): void {
    this.#jobs.endOrphans();
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
    const start = await sessionStart(deps, params, child);
    const { sessionId } = start;
    const mcpServers = params.mcpServers ?? [];
    const runtime = new SessionRuntime(
      sessionId,
      deps,
      io(sessionId),
      start.tools,
      mcpServers,
      params.cwd,
      child?.mcpSecrets,
    );
    runtime.#folds.started();
    if (child?.command) runtime.#turnSession.forkedCommand = child.command;
    await runtime.#writer.create(start.row, start.fact);
    if (start.settings) await recordSettings(runtime, start.settings);
    for (const notice of start.notices) await runtime.record(notice);
    // A session given no instruction file, skill, command or agent has nothing to show beyond its prompt.
    // What the model was given is recorded once the client knows the session (syncCommands, after the response).
    if (start.sources) runtime.#tooling.startedWith(start.sources, start.excludes);
    return runtime;
  }

  /**
   * Continues a session from what a restore folded (`fold`, stored-fold.ts) without reading its
   * records again: a load that replayed it before the engine had loaded becomes live this way
   * (replay-stored.ts). `info` is the session's row. Never writes.
   */
  static adopt(
    deps: EngineDeps,
    io: SessionIo,
    sessionId: string,
    info: Pick<SessionRow, "cwd" | "parentSessionId"> | undefined,
    fold: StoredFold,
    mcpServers: McpServerConfig[] = [],
  ): SessionRuntime {
    // A subagent's session never offers Task or AskUserQuestion: only top-level sessions start subagents and ask the user.
    const tools = info?.parentSessionId ? deps.tools.without(PARENT_ONLY) : deps.tools;
    const runtime = new SessionRuntime(sessionId, deps, io, tools, mcpServers, info?.cwd ?? process.cwd());
    runtime.#folds.adopt(fold);
    runtime.#writer.restoredTo(fold.seq);
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
      // The journal could not be reached mid-turn: the turn stops (its model and tool work are
      // cancelled, and nothing more of it is shown), and a notice says so, recorded first when the
      // journal is back (the next prompt reconnects; the turn left open is closed then as after a
      // crash, `session_recovered`).
      if (this.#writer.lost) {
        abort.abort();
        await this.#writer.showUnrecorded(journalLostNotice(error));
      }
      throw error;
    }
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
    const change = configChange(this.configValues(), configId, value, this.#catalog);
    await this.record(change);
    return change.configOptions;
  }

  configValues(): ConfigValues {
    return configValuesOf(this.state);
  }

  /** The config options as they stand, listing the models this process knows. */
  currentConfigOptions(): SessionConfigOption[] {
    return currentConfigOptions(this.state, this.#catalog);
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
    await closeParts(this.sessionId, {
      jobs: this.#jobs,
      writer: this.#writer,
      hooks: this.#hooks,
      tooling: this.#tooling,
    });
  }

  /** Records a fact now if this process writes the session, else at its first write (loading never writes). */
  #recordSoon(fact: Fact): void {
    if (this.#closed) return;
    this.#writer.recordSoon(fact);
  }

  /** The extra roots file tools may use (session-roots.ts). */
  get additionalDirectories(): string[] {
    return this.#roots.additional;
  }

  /** The extra roots the client activated on `session/load` or `session/resume` (session-roots.ts). */
  activateDirectories(directories: string[]): void {
    this.#roots.activate(directories);
  }

  /** Starts subagents as child sessions of this one (session-children.ts). */
  #subagents() {
    return childSessions({
      sessionId: this.sessionId,
      io: this.io,
      state: this.state,
      tools: this.tools,
      mcpSecrets: this.#mcpSecrets,
      mcpTools: () => this.#tooling.mcpTools,
      additionalDirectories: () => this.additionalDirectories,
      configValues: () => this.configValues(),
      models: () => this.#catalog.models(),
      record: (fact) => this.record(fact),
      cancel: () => this.cancel(),
      create: (io, params, child) => SessionRuntime.create(this.deps, io, params, child),
    });
  }

  /**
   * Rewinds the session (`session/rewind`, and `session/edit_prompt` before its new prompt): a
   * running turn is cancelled first, a turn a dead process left open is closed as the next prompt
   * would close it, then the point is recorded (rewind.ts); `files`: the workspace's files too
   * (restore-step.ts).
   */
  rewind(target: RewindTarget, options: { files?: boolean } = {}): Promise<Rewound> {
    const session = {
      sessionId: this.sessionId,
      state: this.state,
      store: this.deps.store,
      roots: [this.state.cwd, ...this.additionalDirectories],
      index: this.#folds.messages,
      record: (fact: Fact) => this.record(fact),
      askCard: this.io.askCard,
      running: this.running,
      cancel: () => this.cancel(),
      settled: () => this.settled(),
    };
    return rewindSession(session, target, options.files ?? false);
  }
}
