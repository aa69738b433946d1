/**
 * The client's own file access and terminals, offered to tools only when the client advertised
 * them (`fs.readTextFile`, `fs.writeTextFile`, `terminal`, `elicitation.form`): never called otherwise.
 */
import type { AgentContext, ClientCapabilities, ElicitationSchema } from "@agentclientprotocol/sdk/unstable";
import { methods } from "@agentclientprotocol/sdk/unstable";
import type { ClientTerminal, FormAnswer, ToolHost } from "../core/tools/tool.ts";

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
  if (capabilities.elicitation?.form) {
    host.askForm = async ({ toolCallId, message, requestedSchema }, signal) => {
      const response = await client.request(
        methods.client.elicitation.create,
        { mode: "form", sessionId, toolCallId, message, requestedSchema: requestedSchema as ElicitationSchema },
        // A cancelled turn sends $/cancel_request and stops waiting: its end never waits on the client.
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
      return formAnswer(response);
    };
  }
  return host;
}

/** An elicitation response as the engine takes it: an action it does not know counts as a dismissal. */
function formAnswer(response: { action: string; content?: unknown }): FormAnswer {
  if (response.action === "accept") {
    const content =
      response.content && typeof response.content === "object" ? (response.content as Record<string, unknown>) : {};
    return { action: "accept", content };
  }
  return response.action === "decline" ? { action: "decline" } : { action: "cancel" };
}
