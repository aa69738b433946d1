/** Starting verbatim as a separate process and talking ACP to it over its stdio. */
import * as acp from "@agentclientprotocol/sdk";
import type { Stream } from "@agentclientprotocol/sdk";
import { fileURLToPath } from "node:url";

export type AgentProcess = {
  stream: Stream;
  pid: number;
  /** Everything the agent wrote to stderr so far. */
  stderr(): string;
  kill(signal?: NodeJS.Signals | number): void;
  exited: Promise<number>;
};

/** A `bun build --compile` binary keeps its modules in Bun's embedded file system. */
const isCompiled = (main: string) => main.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(main);

/**
 * The command that runs this verbatim: the same Bun, the same entry (source or built bundle), or
 * the same single-file binary.
 */
export function agentCommand(): string[] {
  const main = Bun.main;
  if (isCompiled(main)) return [process.execPath];
  const entry = /(?:cli\.ts|verbatim\.js)$/.test(main) ? main : fileURLToPath(new URL("../cli.ts", import.meta.url));
  return [process.execPath, entry];
}

export function spawnAgent(
  options: { env?: Record<string, string | undefined>; cwd?: string; command?: string[] } = {},
): AgentProcess {
  const child = Bun.spawn(options.command ?? agentCommand(), {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...options.env } as Record<string, string>,
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let err = "";
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) err += decoder.decode(chunk, { stream: true });
  })();
  const input = new WritableStream<Uint8Array>({
    async write(chunk) {
      child.stdin.write(chunk);
      await child.stdin.flush();
    },
    close() {
      void child.stdin.end();
    },
  });
  return {
    stream: acp.ndJsonStream(input, child.stdout),
    pid: child.pid,
    stderr: () => err,
    kill: (signal) => child.kill(signal),
    exited: child.exited,
  };
}
