/** Running the verbatim command line as a user would, capturing its output and exit code. */
import { fileURLToPath } from "node:url";
import { agentCommand } from "../../src/client/spawn-agent.ts";

export type CliResult = { code: number; stdout: string; stderr: string };

export type CliOptions = {
  /** Sends SIGINT (or `signal`) once stdout satisfies this. */
  interruptWhen?: (stdout: string) => boolean;
  signal?: NodeJS.Signals;
  /** Text given on stdin (closed after it); without it stdin is /dev/null. */
  stdin?: string;
  /** The process's working directory. */
  cwd?: string;
  /** Runs the command through this launcher instead of Bun on the entry (see `nodeLauncher`). */
  command?: string[];
  /** Stops reading stdout (closing the pipe, as `| head` does) once it satisfies this. */
  closeStdoutWhen?: (stdout: string) => boolean;
};

/** `node bin/verbatim.js`: the launcher npm installs as `verbatim`. */
export const nodeLauncher = (): string[] => ["node", fileURLToPath(new URL("../../bin/verbatim.js", import.meta.url))];

export async function runCli(
  args: string[],
  env: Record<string, string>,
  options: CliOptions = {},
): Promise<CliResult> {
  const child = Bun.spawn([...(options.command ?? agentCommand()), ...args], {
    stdout: "pipe",
    stderr: "pipe",
    stdin: options.stdin !== undefined ? new TextEncoder().encode(options.stdin) : "ignore",
    env: { ...process.env, ...env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let stdout = "";
  let interrupted = false;
  const decoder = new TextDecoder();
  const stderrText = new Response(child.stderr).text();
  const reader = child.stdout.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    stdout += decoder.decode(value, { stream: true });
    if (!interrupted && options.interruptWhen?.(stdout)) {
      interrupted = true;
      child.kill(options.signal ?? "SIGINT");
    }
    if (options.closeStdoutWhen?.(stdout)) {
      await reader.cancel();
      break;
    }
  }
  return { code: await child.exited, stdout, stderr: await stderrText };
}

/** The JSON object on the last line of stdout (what `--json` ends with). */
export const lastJsonLine = (stdout: string): Record<string, unknown> =>
  JSON.parse(stdout.trim().split("\n").pop() ?? "null") as Record<string, unknown>;
