/**
 * Where a question reads its answer from: a line editor (line-editor.ts). `run` and `rewind` give
 * each question one that takes the terminal only while it waits, so between questions Ctrl-C is the
 * process's SIGINT (answering.ts `askAtTerminal`); a conversation keeps one editor for its whole
 * length (`chat`), which is what keeps lines typed ahead and pastes whole.
 */
import type { LineAnswer, TerminalIo } from "./line-editor.ts";

export type { LineAnswer, TerminalIo } from "./line-editor.ts";

/** Reads a line after a prompt: where a question gets its answer from. */
export type LineSource = (prompt: string) => Promise<LineAnswer>;

export const processTerminal = (): TerminalIo => ({ input: process.stdin, output: process.stderr });
