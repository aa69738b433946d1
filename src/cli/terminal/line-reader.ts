/**
 * One line read from the terminal: a prompt on stderr (stdout is the transcript), the line typed
 * after it, and what else a person can do there: Ctrl-C (interrupt) and Ctrl-D on an empty line
 * (end). A reader exists only while it waits, so between questions Ctrl-C is the process's SIGINT.
 */
import { createInterface } from "node:readline";

export type LineAnswer = { kind: "line"; text: string } | { kind: "interrupt" } | { kind: "end" };

export type TerminalIo = { input: NodeJS.ReadableStream; output: NodeJS.WritableStream };

export const processTerminal = (): TerminalIo => ({ input: process.stdin, output: process.stderr });

/** Reads one line from `io`; `signal` ends the wait as an interrupt (the turn was cancelled elsewhere). */
export function readLine(io: TerminalIo, prompt: string, signal?: AbortSignal): Promise<LineAnswer> {
  const rl = createInterface({ input: io.input, output: io.output, terminal: true });
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: LineAnswer) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", aborted);
      rl.close();
      resolve(answer);
    };
    const aborted = () => {
      io.output.write("\n");
      settle({ kind: "interrupt" });
    };
    if (signal?.aborted) return settle({ kind: "interrupt" });
    signal?.addEventListener("abort", aborted, { once: true });
    rl.on("SIGINT", () => {
      io.output.write("^C\n");
      settle({ kind: "interrupt" });
    });
    rl.on("close", () => {
      if (!settled) io.output.write("\n");
      settle({ kind: "end" });
    });
    rl.question(prompt, (text) => settle({ kind: "line", text }));
  });
}
