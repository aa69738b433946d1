/**
 * The client's own file access and terminals, offered to tools only when the client advertised
 * them (`fs.readTextFile`, `fs.writeTextFile`, `terminal`): never called otherwise.
 */
import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk/unstable";
import { methods } from "@agentclientprotocol/sdk/unstable";
import type { ClientTerminal, ToolHost } from "../core/tools/tool.ts";

export function clientHost(client: AgentContext, capabilities: ClientCapabilities, sessionId: string): ToolHost {
  const host: ToolHost = {};
  if (capabilities.fs?.readTextFile) {
    host.readTextFile = async (path) => {
      const response = await client.request(methods.client.fs.readTextFile, { sessionId, path });
      return response.content;
    };
  }
  if (capabilities.fs?.writeTextFile) {
    host.writeTextFile = async (path, content) => {
      await client.request(methods.client.fs.writeTextFile, { sessionId, path, content });
    };
  }
  if (capabilities.terminal) {
    host.createTerminal = async ({ command, args, cwd, outputByteLimit }) => {
      const handle = await client.createTerminal({ sessionId, command, args, cwd, outputByteLimit });
      const terminal: ClientTerminal = {
        id: handle.id,
        output: async () => {
          const r = await handle.currentOutput();
          return { output: r.output, truncated: r.truncated, exitStatus: r.exitStatus ?? null };
        },
        waitForExit: async () => {
          const r = await handle.waitForExit();
          return { exitCode: r.exitCode ?? null, signal: r.signal ?? null };
        },
        kill: async () => {
          await handle.kill();
        },
        release: async () => {
          await handle.release();
        },
      };
      return terminal;
    };
  }
  return host;
}
