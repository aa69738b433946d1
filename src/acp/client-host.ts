/** The client's own file access, offered to tools only when the client advertised it. */
import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import { methods } from "@agentclientprotocol/sdk";
import type { ToolHost } from "../core/tools/tool.ts";

export function clientHost(client: AgentContext, capabilities: ClientCapabilities, sessionId: string): ToolHost {
  const host: ToolHost = {};
  if (capabilities.fs?.readTextFile) {
    host.readTextFile = async (path, { line, limit }) => {
      const response = await client.request(methods.client.fs.readTextFile, {
        sessionId,
        path,
        ...(line !== undefined ? { line } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      return response.content;
    };
  }
  if (capabilities.fs?.writeTextFile) {
    host.writeTextFile = async (path, content) => {
      await client.request(methods.client.fs.writeTextFile, { sessionId, path, content });
    };
  }
  return host;
}
