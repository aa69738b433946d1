/**
 * The exact bytes a freshly spawned verbatim writes to stdout for `initialize` and one
 * `session/load`, up to and including the load's response: for comparing two replays byte for byte.
 */
import { spawn } from "bun";
import { agentCommand } from "../../src/client/spawn-agent.ts";

export async function loadBytes(
  env: Record<string, string>,
  sessionId: string,
  cwd: string,
  clientCapabilities: unknown = {},
): Promise<string> {
  const child = spawn(agentCommand(), {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
    env: { ...process.env, ...env },
  });
  const send = async (request: object) => {
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...request })}\n`);
    await child.stdin.flush();
  };
  const decoder = new TextDecoder();
  let text = "";
  let loading = false;
  try {
    await send({ id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities } });
    for await (const chunk of child.stdout) {
      text += decoder.decode(chunk, { stream: true });
      if (!loading && responseEnd(text, 1) >= 0) {
        loading = true;
        await send({ id: 2, method: "session/load", params: { sessionId, cwd, mcpServers: [] } });
      }
      const end = responseEnd(text, 2);
      if (end >= 0) return text.slice(0, end);
    }
    throw new Error(`the agent exited before answering the load:\n${text.slice(-2000)}`);
  } finally {
    child.kill();
    await child.exited;
  }
}

/** Where the line answering request `id` ends (past its newline), or -1 before it has arrived. */
function responseEnd(text: string, id: number): number {
  const head = `{"jsonrpc":"2.0","id":${id},`;
  const at = text.startsWith(head) ? 0 : text.indexOf(`\n${head}`);
  if (at < 0) return -1;
  const nl = text.indexOf("\n", at + 1);
  return nl < 0 ? -1 : nl + 1;
}
