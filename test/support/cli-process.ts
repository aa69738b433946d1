/** Running the verbatim command line as a user would, capturing its output and exit code. */
import { agentCommand } from "../../src/client/spawn-agent.ts";

export type CliResult = { code: number; stdout: string; stderr: string };

export async function runCli(args: string[], env: Record<string, string>, options: { interruptWhen?: (stdout: string) => boolean } = {}): Promise<CliResult> {
  const child = Bun.spawn([...agentCommand(), ...args], { stdout: "pipe", stderr: "pipe", stdin: "ignore", env: { ...process.env, ...env } });
  let stdout = "";
  let interrupted = false;
  const decoder = new TextDecoder();
  const stderrText = new Response(child.stderr).text();
  for await (const chunk of child.stdout) {
    stdout += decoder.decode(chunk, { stream: true });
    if (!interrupted && options.interruptWhen?.(stdout)) {
      interrupted = true;
      child.kill("SIGINT");
    }
  }
  return { code: await child.exited, stdout, stderr: await stderrText };
}
