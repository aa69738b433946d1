/**
 * One MCP server of a session, through the official SDK's client: started (stdio) or reached
 * (HTTP, SSE), its tools listed (again when it says they changed), its tools called. A server
 * that fails to start or stops is reported once through `onEvent`, with its secrets masked; the
 * session goes on without it.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool as McpToolDef } from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "../tools/tool.ts";
import { mcpTool } from "./mcp-tool.ts";
import { redact, type McpServerConfig } from "./server-config.ts";

type McpSdk = typeof import("../../lazy-sdks/mcp-sdk.ts");

export type McpStatus = "connecting" | "connected" | "failed" | "stopped" | "closed";

/** Something the user should be told about a server. */
export type McpEvent = { server: string; severity: "warning" | "error"; title: string; description?: string };

export type ConnectionOptions = {
  cwd: string;
  clientVersion: string;
  connectTimeoutMs: number;
  onEvent(event: McpEvent): void;
};

/** A tool call may run long; progress from the server keeps it alive. */
const CALL_TIMEOUT_MS = 30 * 60_000;
const STDERR_TAIL = 2000;

export class McpConnection {
  status: McpStatus = "connecting";
  #client: Client | undefined;
  #sdk: McpSdk | undefined;
  #defs: McpToolDef[] = [];
  #stderr = "";

  /** `name` is the server's name, unique within the session. */
  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly options: ConnectionOptions,
  ) {}

  /** The server's tools while it is connected. */
  tools(): Tool[] {
    if (this.status !== "connected") return [];
    return this.#defs.map((def) => mcpTool(this.name, def, (tool, args, signal) => this.#call(tool, args, signal)));
  }

  /** Connects and lists the tools. Never throws: a failure is reported and leaves the server `failed`. */
  async connect(): Promise<void> {
    let sdk: McpSdk;
    try {
      sdk = await import("../../lazy-sdks/mcp-sdk.ts");
    } catch (error) {
      if (this.status !== "connecting") return;
      this.status = "failed";
      this.#report(
        "error",
        `The MCP server "${this.name}" could not start; the session goes on without it`,
        describe(error),
      );
      return;
    }
    // Closed while the SDK loaded: nothing to start.
    if (this.status !== "connecting") return;
    this.#sdk = sdk;
    const client = new sdk.Client(
      { name: "verbatim", version: this.options.clientVersion },
      {
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (!error && tools && this.status === "connected") this.#defs = tools;
            },
          },
        },
      },
    );
    this.#client = client;
    try {
      const transport = this.#transport(sdk);
      client.onclose = () => this.#stopped("it closed the connection");
      await withTimeout(
        client.connect(transport, { timeout: this.options.connectTimeoutMs }),
        this.options.connectTimeoutMs,
        "connecting",
      );
      this.#defs = await this.#listTools(client);
      if (this.status === "connecting") this.status = "connected";
    } catch (error) {
      if (this.status !== "connecting") return;
      this.status = "failed";
      this.#report(
        "error",
        `The MCP server "${this.name}" could not start; the session goes on without it`,
        describe(error),
      );
      await client.close().catch(() => undefined);
    }
  }

  /** Stops the server (stdio) or closes the connection; reports nothing. */
  async close(): Promise<void> {
    this.status = "closed";
    await this.#client?.close().catch(() => undefined);
  }

  async #listTools(client: Client): Promise<McpToolDef[]> {
    const tools: McpToolDef[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: this.options.connectTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async #call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const client = this.#client;
    if (!client || this.status !== "connected") throw new Error(`the server is not running (${this.status})`);
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: CALL_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
      })) as CallToolResult;
    } catch (error) {
      // A protocol error is the server's answer; anything else (a refused connection, a dead
      // process) means the server is gone.
      if (!(this.#sdk && error instanceof this.#sdk.McpError) && !signal.aborted) this.#stopped(describe(error));
      throw new Error(redact(describe(error), this.config));
    }
  }

  #transport(sdk: McpSdk): Transport {
    const c = this.config;
    if (c.transport === "stdio") {
      const env = { ...sdk.getDefaultEnvironment(), ...Object.fromEntries(c.env.map((e) => [e.name, e.value])) };
      const transport = new sdk.StdioClientTransport({
        command: c.command,
        args: c.args,
        env,
        cwd: this.options.cwd,
        stderr: "pipe",
      });
      transport.stderr?.on("data", (chunk: Buffer) => {
        this.#stderr = (this.#stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
      });
      return transport;
    }
    const headers = Object.fromEntries(c.headers.map((h) => [h.name, h.value]));
    const url = new URL(c.url);
    return c.transport === "http"
      ? new sdk.StreamableHTTPClientTransport(url, { requestInit: { headers } })
      : new sdk.SSEClientTransport(url, { requestInit: { headers } });
  }

  #stopped(reason: string): void {
    if (this.status !== "connected") return;
    this.status = "stopped";
    this.#report("warning", `The MCP server "${this.name}" stopped; its tools are no longer available`, reason);
    void this.#client?.close().catch(() => undefined);
  }

  #report(severity: McpEvent["severity"], title: string, reason: string): void {
    const tail = this.#stderr.trim();
    const description = redact(tail ? `${reason}\n${tail.split("\n").slice(-5).join("\n")}` : reason, this.config);
    this.options.onEvent({ server: this.name, severity, title, description });
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer after ${Math.round(ms / 1000)}s while ${what}`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
