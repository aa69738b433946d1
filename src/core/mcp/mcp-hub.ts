/**
 * The MCP servers of one session: connected together when the session begins, their tools
 * offered while they run, all closed with the session. Reports go through `onEvent`.
 */
import type { ToolSpec } from "../../journal/facts/index.ts";
import { ToolRegistry } from "../tools/registry.ts";
import type { Tool } from "../tools/tool.ts";
import { McpConnection, type McpEvent } from "./mcp-connection.ts";
import type { McpServerConfig } from "./server-config.ts";

export type McpHubOptions = {
  cwd: string;
  clientVersion: string;
  connectTimeoutMs: number;
  onEvent(event: McpEvent): void;
};

/** What the model is offered of the servers, as journaled (`mcp_tools_listed`). */
export type McpListing = {
  servers: {
    name: string;
    transport: McpServerConfig["transport"];
    status: "connected" | "failed" | "stopped";
    tools: string[];
  }[];
  tools: ToolSpec[];
};

export class McpHub {
  readonly #connections: McpConnection[];
  #ready: Promise<void> | undefined;

  constructor(configs: McpServerConfig[], options: McpHubOptions) {
    const taken = new Set<string>();
    this.#connections = configs.map((config) => {
      const base = config.name.trim() || "server";
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
      taken.add(name);
      return new McpConnection(name, config, options);
    });
  }

  /** Starts connecting every server (once). */
  start(): void {
    this.#ready ??= Promise.all(this.#connections.map((c) => c.connect())).then(() => undefined);
  }

  /** Resolves once every server has connected or failed (each is bounded by the connect timeout). */
  async ready(): Promise<void> {
    this.start();
    await this.#ready;
  }

  /**
   * The tools of the servers that are running now, and the listing the model is offered of them,
   * taken together (a server may stop at any moment).
   */
  snapshot(): { tools: Tool[]; listing: McpListing } {
    const byServer = this.#connections.map((c) => ({ connection: c, status: c.status, tools: c.tools() }));
    const tools = byServer.flatMap((s) => s.tools);
    return {
      tools,
      listing: {
        servers: byServer.map(({ connection, status, tools }) => ({
          name: connection.name,
          transport: connection.config.transport,
          status:
            status === "connected" ? "connected" : status === "stopped" || status === "closed" ? "stopped" : "failed",
          tools: tools.map((t) => t.name),
        })),
        tools: new ToolRegistry(tools).specs(),
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.#connections.map((c) => c.close()));
  }
}

export type { McpEvent };
