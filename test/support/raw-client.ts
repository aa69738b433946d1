/**
 * A raw NDJSON client for what the SDK client will not send: malformed lines, requests before
 * initialize, hostile ids. Reads whole lines and parses them; nothing is validated.
 */
import { spawn } from "bun";
import { agentCommand } from "../../src/client/spawn-agent.ts";

export type RawAgent = {
  send(line: string): void;
  request(method: string, params: unknown, id?: number | string): Promise<RawMessage>;
  /** The next message with this id (a response), in arrival order. */
  response(id: number | string | null): Promise<RawMessage>;
  messages: RawMessage[];
  close(): Promise<number>;
};

export type RawMessage = { id?: number | string | null; method?: string; result?: unknown; error?: { code: number; message: string; data?: unknown }; params?: unknown };

export function rawAgent(env: Record<string, string>): RawAgent {
  const child = spawn(agentCommand(), { stdin: "pipe", stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  const messages: RawMessage[] = [];
  const waiters: (() => void)[] = [];
  let nextId = 1000;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim()) messages.push(JSON.parse(line) as RawMessage);
        for (const w of waiters.splice(0)) w();
      }
    }
  })();
  const response = async (id: number | string | null) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = messages.find((m) => m.id === id && m.method === undefined);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no response with id ${String(id)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  const send = (line: string) => {
    child.stdin.write(line.endsWith("\n") ? line : `${line}\n`);
    void child.stdin.flush();
  };
  return {
    messages,
    send,
    response: (id) => response(id),
    request: (method, params, id = nextId++) => {
      send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
      return response(id);
    },
    close: async () => {
      void child.stdin.end();
      child.kill();
      return child.exited;
    },
  };
}

/** A raw agent that has answered `initialize`. */
export async function initializedRawAgent(env: Record<string, string>): Promise<RawAgent> {
  const agent = rawAgent(env);
  await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  return agent;
}
