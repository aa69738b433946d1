/** ACP `mcpServers` as the engine takes them. Stdio servers have no `type`; HTTP and SSE say theirs. */
import type { McpServer } from "@agentclientprotocol/sdk/unstable";
import { RequestError } from "@agentclientprotocol/sdk/unstable";
import type { McpServerConfig } from "../core/mcp/server-config.ts";

export function mcpServerConfigs(servers: McpServer[] | null | undefined): McpServerConfig[] {
  return (servers ?? []).map((server, index) => {
    if ("type" in server && (server.type === "http" || server.type === "sse")) {
      if (!/^https?:\/\//.test(server.url)) {
        throw RequestError.invalidParams(
          { index, name: server.name },
          `MCP server "${server.name}" needs an http(s) URL`,
        );
      }
      return {
        transport: server.type,
        name: server.name,
        url: server.url,
        headers: server.headers.map(({ name, value }) => ({ name, value })),
      };
    }
    if (!("command" in server) || typeof server.command !== "string" || !server.command) {
      throw RequestError.invalidParams(
        { index },
        "an MCP server needs a command (stdio) or a type of http or sse with a url",
      );
    }
    // The spec asks for an absolute path; a bare name is still looked up on PATH, as some editors send them.
    return {
      transport: "stdio",
      name: server.name,
      command: server.command,
      args: server.args ?? [],
      env: (server.env ?? []).map(({ name, value }) => ({ name, value })),
    };
  });
}
