/**
 * One line read from the terminal, for a question asked once (`run`'s permission questions): a
 * line editor (line-editor.ts) that takes the terminal only while it waits, so between questions
 * Ctrl-C is the process's SIGINT. A conversation keeps one editor for its whole length instead
 * (`chat`), which is what keeps lines typed ahead and pastes whole.
 */
import { LineEditor, type LineAnswer, type TerminalIo } from "./line-editor.ts";

export type { LineAnswer, TerminalIo } from "./line-editor.ts";

/** Reads a line after a prompt: where a question gets its answer from. */
export type LineSource = (prompt: string) => Promise<LineAnswer>;

export const processTerminal = (): TerminalIo => ({ input: process.stdin, output: process.stderr });

/** Reads one line from `io`; `signal` ends the wait as an interrupt (the turn was cancelled elsewhere). */
export async function readLine(io: TerminalIo, prompt: string, signal?: AbortSignal): Promise<LineAnswer> {
  const editor = new LineEditor(io);
  try {
    return await editor.read(prompt, signal ? { signal } : {});
  } finally {
    editor.close();
  }
}
