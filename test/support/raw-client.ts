/**
 * A raw NDJSON client for what the SDK client will not send: malformed lines, invalid UTF-8,
 * requests before initialize, hostile ids, oversized frames. Reads whole lines and parses them;
 * nothing is validated. A line the agent writes that is not JSON is kept apart (`garbled`), so a
 * test can require that there is none.
 */
import { spawn } from "bun";
import { agentCommand } from "../../src/client/spawn-agent.ts";

export type RawId = number | string | null;

export type RawAgent = {
  /** Writes one line (a newline is added unless it ends with one). */
  send(line: string): Promise<void>;
  /** Writes bytes exactly as given. */
  sendBytes(bytes: Uint8Array): Promise<void>;
  request(method: string, params: unknown, id?: number | string): Promise<RawMessage>;
  /** The first response with this id (waits for it, up to `timeoutMs`). */
  response(id: RawId, timeoutMs?: number): Promise<RawMessage>;
  /** Every response received with this id so far, in arrival order. */
  responses(id: RawId): RawMessage[];
  /** Waits until `predicate` holds over what has arrived. */
  until(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Every message received, in arrival order. */
  messages: RawMessage[];
  /** Lines the agent wrote to stdout that were not JSON (a protocol violation). */
  garbled: string[];
  /** The last 64 KiB the agent wrote to stderr. */
  stderr(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number>;
  /** True while the process runs. */
  alive(): boolean;
  /** The agent's process id (for signalling it). */
  pid: number;
  /** Closes the agent's stdin (the client is done); the agent should then exit on its own. */
  endInput(): void;
  close(): Promise<number>;
};

export type RawMessage = {
  id?: RawId;
  method?: string;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  params?: unknown;
};

/** The map key of a JSON-RPC id: its JSON text (so 1 and "1" differ). */
export const idKey = (id: unknown): string => JSON.stringify(id) ?? "undefined";

const STDERR_TAIL = 64 * 1024;

export function rawAgent(env: Record<string, string>): RawAgent {
  const child = spawn(agentCommand(), {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...env },
  });
  const messages: RawMessage[] = [];
  const garbled: string[] = [];
  const byId = new Map<string, RawMessage[]>();
  const waiters: (() => void)[] = [];
  let running = true;
  let errTail = "";
  const exited = child.exited.then((code) => {
    running = false;
    for (const w of waiters.splice(0)) w();
    return code;
  });
  let nextId = 1000;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let start = 0;
      let nl: number;
      while ((nl = buffer.indexOf("\n", start)) >= 0) {
        const line = buffer.slice(start, nl);
        start = nl + 1;
        if (!line.trim()) continue;
        let message: RawMessage;
        try {
          message = JSON.parse(line) as RawMessage;
        } catch {
          garbled.push(line.slice(0, 500));
          continue;
        }
        messages.push(message);
        if (message.method === undefined && message.id !== undefined) {
          const key = idKey(message.id);
          const list = byId.get(key);
          if (list) list.push(message);
          else byId.set(key, [message]);
        }
      }
      buffer = buffer.slice(start);
      for (const w of waiters.splice(0)) w();
    }
  })();
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      errTail = (errTail + decoder.decode(chunk, { stream: true })).slice(-STDERR_TAIL);
    }
  })();
  const until = async (predicate: () => boolean, what: string, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; agent stderr:\n${errTail.slice(-4000)}`);
      if (!running)
        throw new Error(`the agent exited while waiting for ${what}; agent stderr:\n${errTail.slice(-4000)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  const response = async (id: RawId, timeoutMs = 10_000) => {
    await until(() => byId.has(idKey(id)), `a response with id ${idKey(id)}`, timeoutMs);
    return (byId.get(idKey(id)) as RawMessage[])[0] as RawMessage;
  };
  const sendBytes = async (bytes: Uint8Array) => {
    child.stdin.write(bytes);
    await child.stdin.flush();
  };
  // async: a write to an agent that exited rejects (EPIPE) rather than throwing at the caller.
  const send = async (line: string) => {
    child.stdin.write(line.endsWith("\n") ? line : `${line}\n`);
    await child.stdin.flush();
  };
  return {
    messages,
    garbled,
    send,
    sendBytes,
    response,
    responses: (id) => byId.get(idKey(id)) ?? [],
    until,
    stderr: () => errTail,
    exited,
    alive: () => running,
    pid: child.pid,
    request: (method, params, id = nextId++) => {
      // A write to an agent that exited fails; the wait for the response then says so, with its stderr.
      send(JSON.stringify({ jsonrpc: "2.0", id, method, params })).catch(() => undefined);
      return response(id);
    },
    endInput: () => {
      void child.stdin.end();
    },
    close: async () => {
      void child.stdin.end();
      child.kill();
      return exited;
    },
  };
}

/** A raw agent that has answered `initialize`. */
export async function initializedRawAgent(
  env: Record<string, string>,
  clientCapabilities: unknown = {},
): Promise<RawAgent> {
  const agent = rawAgent(env);
  await agent.request("initialize", { protocolVersion: 1, clientCapabilities }, "setup-initialize");
  return agent;
}
