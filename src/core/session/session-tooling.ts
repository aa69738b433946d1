/**
 * What a session offers beyond its built-in tools, kept in step with the journal: the tools of
 * its MCP servers and its slash commands. Each set is recorded (as the model and the client are
 * to see it) whenever it differs from the one last recorded; a turn offers exactly what is.
 * (Compared with Bun's deep equality: node:util costs the engine milliseconds to load.)
 */
import type { ContextSource, Fact, FactOf } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { availableCommands } from "../commands/project-commands.ts";
import { mintId } from "../ids.ts";
import { type CommandFiles, offered } from "../commands/command-files.ts";
import { agentFiles, offeredAgent } from "../subagents/agent-files.ts";
import { contextGivenFact } from "./session-started.ts";
import { setupNotices } from "./setup-notices.ts";
import { commandPlace } from "./command-place.ts";
import { changedSources } from "../instructions/changed-sources.ts";
import { McpHub } from "../mcp/mcp-hub.ts";
import type { McpServerConfig } from "../mcp/server-config.ts";
import type { Tool } from "../tools/tool.ts";

type Exclusions = Pick<FactOf<"context_given">, "excludes" | "excluded">;

export type ToolingHost = {
  state: SessionStateFold;
  record(fact: Fact): Promise<void>;
  /** Records a fact as soon as this process writes the session (a load never writes). */
  recordSoon(fact: Fact): void;
};

export class SessionTooling {
  readonly #hub: McpHub | undefined;
  #mcpTools: Tool[] = [];
  #skippedShown = "[]";
  /** The instruction files a session created in this process was built from (and those excluded), until `context_given` records them. */
  #startSources: ContextSource[] | undefined;
  #startExclusions: Exclusions = {};
  #syncing: Promise<void> = Promise.resolve();
  /** The changes to the files the model was given already told in this process (`path` and how). */
  readonly #changesShown = new Set<string>();

  constructor(
    private readonly host: ToolingHost,
    servers: McpServerConfig[],
    options: { cwd: string; clientVersion: string; connectTimeoutMs: number },
  ) {
    this.#hub = servers.length
      ? new McpHub(servers, {
          ...options,
          onEvent: (event) =>
            host.recordSoon({
              kind: "notice_shown",
              messageId: mintId("msg"),
              severity: event.severity,
              title: event.title,
              ...(event.description ? { description: event.description } : {}),
            }),
        })
      : undefined;
  }

  /** A new session's system prompt was built from `sources`: recorded with what it offers, once the client knows the session. */
  startedWith(sources: ContextSource[], exclusions: Exclusions = {}): void {
    this.#startSources = sources;
    this.#startExclusions = exclusions;
  }

  /** Starts connecting the MCP servers (in the background). Idempotent. */
  start(): void {
    this.#hub?.start();
  }

  /** The MCP tools the current turn offers (as recorded before it). */
  get mcpTools(): Tool[] {
    return this.#mcpTools;
  }

  /**
   * Records the slash commands when the set found now differs from the one last recorded (and
   * what the session offers, `context_given`, when its skills, commands or agents changed), and
   * shows the files that were not read and the names that clashed (when that changed in this process).
   */
  syncCommands(): Promise<void> {
    // One at a time: the one begin() starts may still be reading when a turn's settle() asks.
    const next = this.#syncing.then(() => this.#syncCommands());
    this.#syncing = next.catch(() => undefined);
    return next;
  }

  async #syncCommands(): Promise<void> {
    const { state } = this.host;
    if (state.parentSessionId !== undefined) return;
    const place = commandPlace(state);
    let files: CommandFiles | undefined;
    const commands = await availableCommands(place, (found) => {
      files = found;
    });
    const agents = await agentFiles(place);
    if (!Bun.deepEquals(commands, state.commands, true))
      await this.host.record({ kind: "commands_available", commands });
    const listed = files?.commands ?? [];
    const offeredNow = {
      skills: listed.filter((c) => c.kind === "skill").map(offered),
      commands: listed.filter((c) => c.kind === "command").map(offered),
      agents: agents.agents.map(offeredAgent),
    };
    const context = state.context;
    const sources = context?.sources ?? this.#startSources ?? [];
    const exclusions = context ? { excludes: context.excludes, excluded: context.excluded } : this.#startExclusions;
    this.#startSources = undefined;
    const before = { skills: context?.skills ?? [], commands: context?.commands ?? [], agents: context?.agents ?? [] };
    const first = context === undefined && (sources.length > 0 || (exclusions.excluded?.length ?? 0) > 0);
    if (first || !Bun.deepEquals(offeredNow, before, true))
      await this.host.record(contextGivenFact(sources, offeredNow, exclusions));
    const notices = setupNotices({
      skipped: [...(files?.skipped ?? []), ...agents.skipped],
      clashes: [...(files?.clashes ?? []), ...agents.clashes],
      untrusted: files?.untrusted ?? [],
    });
    const key = JSON.stringify(notices);
    if (key === this.#skippedShown) return;
    this.#skippedShown = key;
    for (const notice of notices) await this.host.record({ kind: "notice_shown", messageId: mintId("msg"), ...notice });
  }

  /**
   * Before a turn: waits for the MCP servers to connect (or fail), then records the MCP tools
   * and the slash commands where they changed.
   */
  async settle(): Promise<void> {
    if (this.#hub) await this.#hub.ready();
    const snapshot = this.#hub?.snapshot();
    this.#mcpTools = snapshot?.tools ?? [];
    const tools = snapshot?.listing.tools ?? [];
    if (!Bun.deepEquals(tools, this.host.state.mcpTools, true)) {
      await this.host.record({ kind: "mcp_tools_listed", servers: snapshot?.listing.servers ?? [], tools });
    }
    await this.syncCommands();
    await this.noticeChangedContext();
  }

  /**
   * Tells the user, once each, which files the model was given changed or went away since they
   * were recorded: this session keeps what it recorded, the next one reads them anew.
   */
  async noticeChangedContext(): Promise<void> {
    const context = this.host.state.context;
    if (!context) return;
    const fresh = changedSources({ sources: context.sources, offered: [...context.skills, ...context.agents] }).filter(
      (c) => !this.#changesShown.has(`${c.path}\0${c.change}`),
    );
    if (fresh.length === 0) return;
    for (const c of fresh) this.#changesShown.add(`${c.path}\0${c.change}`);
    const n = fresh.length;
    await this.host.record({
      kind: "notice_shown",
      messageId: mintId("msg"),
      severity: "info",
      title: `${n} file${n === 1 ? "" : "s"} the model was given ${n === 1 ? "has" : "have"} changed since the session started; this session keeps what it was given, a new session reads ${n === 1 ? "it" : "them"} anew`,
      description: fresh.map((c) => `${c.path} was ${c.change}`).join("\n"),
    });
  }

  async close(): Promise<void> {
    await this.#hub?.close();
  }
}
