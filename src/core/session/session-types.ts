/** What a session runtime is built from, and how it reaches its client. */
import type { UserCommand } from "../commands/command-files.ts";
import type { StoredFact } from "../../journal/facts/index.ts";
import type { JournalStore } from "../../journal/store.ts";
import type { ConfigValues } from "../config/config-options.ts";
import type { HookSettings } from "../hooks/settings.ts";
import type { McpServerConfig } from "../mcp/server-config.ts";
import type { ProviderCatalog } from "../providers/catalog.ts";
import type { SubagentKind } from "../tools/subagent-launcher.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { ToolHost } from "../tools/tool.ts";
import type { CallGate } from "../permissions/call-gate.ts";
import type { CardQuestion, PermissionAsker } from "../permissions/permission-questions.ts";
import type { ReplaySeal } from "../replay-cache/replay-seal.ts";

export type EngineDeps = {
  store: JournalStore;
  /** The process's catalog (its own directory's config): what `initialize` offers. */
  catalog: ProviderCatalog;
  /** The catalog for sessions in a workspace (that workspace's project config). */
  catalogFor(cwd: string): ProviderCatalog;
  tools: ToolRegistry;
  agentVersion: string;
  maxSteps: number;
  /** Hooks (configured in settings files) and the host's notify command; absent: no hooks. */
  hooks?: HookSettings;
  /** How long an MCP server may take to start and list its tools (default 30 s). */
  mcpConnectTimeoutMs?: number;
  /** This user's seal of the replay cache's rows (replay-cache/replay-seal.ts); absent: rows unsealed, every line checked. */
  replaySeal?: ReplaySeal;
};

/** How a session reaches its client: showing facts, and the client's own capabilities. */
export type SessionIo = {
  /** Shows a fact that was just appended. Must not throw. */
  publish(record: StoredFact): Promise<void> | void;
  /** Backpressure: a promise to wait on while the client has not taken what was published; undefined when it keeps up. */
  backpressure?(): Promise<void> | undefined;
  host: ToolHost;
  gate?: CallGate;
  /** Asks the client a question about a card (the workspace-trust question); absent: nobody can be asked. */
  asker?: PermissionAsker;
  /**
   * The gate for a subagent's calls: its questions are the child session's (`origin`), asked
   * about the parent's `Task` card. Without it a subagent runs read-only tools only.
   */
  childGate?(origin: { sessionId: string; parentToolCallId: string }): CallGate;
  /**
   * A subagent's session: cancels its parent's turn, when the user cancels the child's turn from
   * inside it (a permission question answered `cancelled`: the turn the user sees is the parent's).
   */
  cancelOuterTurn?(): void;
  /** Asks the user about a card that is no model's call (a rewind's file restore). Without it nobody can be asked. */
  askCard?: CardQuestion;
};

export type NewSessionParams = { cwd: string; additionalDirectories: string[]; mcpServers?: McpServerConfig[] };

/** What makes a session a subagent's child session. */
export type ChildParams = {
  parentSessionId: string;
  kind: SubagentKind;
  tools: ToolRegistry;
  values: ConfigValues;
  /** The parent's MCP secret values: the child uses its MCP tools, and its commands must not see them either. */
  mcpSecrets: string[];
  /** A forked skill (`context: fork`) the child runs: it acts in the child's turn as a typed command acts in its own. */
  command?: UserCommand;
};
