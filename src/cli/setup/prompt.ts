/**
 * Questions on a terminal, one answer a line. Reads stdin itself rather than through
 * node:readline so that a secret can be typed with echo off (raw mode) on the same stream, and so
 * that answers typed ahead (or piped) are kept for the next question.
 */
import { visible } from "../../view/visible-text.ts";

export class SetupCancelled extends Error {
  constructor(readonly code: number) {
    super("setup cancelled");
  }
}

export type Prompter = {
  /** Asks and returns the answer, trimmed; `fallback` when the answer is empty. */
  ask(question: string, fallback?: string): Promise<string>;
  /** Asks with echo off (on a terminal) and returns the answer, trimmed. */
  secret(question: string): Promise<string>;
  /** Asks until the answer is one of the numbered choices; returns its index. */
  choose(question: string, choices: string[], fallback?: number): Promise<number>;
  say(text: string): void;
  close(): void;
};

export function terminalPrompter(
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stdout,
): Prompter {
  let buffered = "";
  let ended = false;
  let raw = false;
  let wake: (() => void) | undefined;
  const onData = (chunk: Buffer | string) => {
    buffered += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    wake?.();
  };
  const onEnd = () => {
    ended = true;
    wake?.();
  };
  input.on("data", onData);
  input.on("end", onEnd);

  /** The next line: up to \r, \n or \r\n. In raw mode the terminal does no editing, so this does. */
  async function line(): Promise<string> {
    for (;;) {
      if (raw) {
        if (buffered.includes("\x03")) throw new SetupCancelled(130);
        buffered = eraseBackspaces(buffered);
      }
      const end = buffered.search(/\r\n|\r|\n/);
      if (end >= 0) {
        const text = buffered.slice(0, end);
        buffered = buffered.slice(end + (buffered.startsWith("\r\n", end) ? 2 : 1));
        return text;
      }
      if (ended) throw new SetupCancelled(1);
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  }

  // What is asked and said quotes servers (their models, their errors), files and typed answers:
  // their control characters are shown as escapes, never sent to the terminal.
  const write = (text: string) => void output.write(visible(text));
  const prompter: Prompter = {
    async ask(question, fallback) {
      write(fallback ? `${question} [${fallback}]: ` : `${question}: `);
      const answer = (await line()).trim();
      return answer === "" && fallback !== undefined ? fallback : answer;
    },
    async secret(question) {
      write(`${question}: `);
      const tty = input.isTTY === true;
      if (tty) {
        input.setRawMode(true);
        raw = true;
      }
      try {
        return (await line()).trim();
      } finally {
        if (tty) {
          input.setRawMode(false);
          raw = false;
          write("\n");
        }
      }
    },
    async choose(question, choices, fallback) {
      for (;;) {
        write(`${question}\n${choices.map((c, i) => `  ${i + 1}) ${c}`).join("\n")}\n`);
        const answer = await prompter.ask("Choose a number", fallback === undefined ? undefined : String(fallback + 1));
        const n = Number(answer);
        if (Number.isInteger(n) && n >= 1 && n <= choices.length) return n - 1;
        write(`"${answer}" is not one of 1 to ${choices.length}.\n`);
      }
    },
    say: (text) => write(`${text}\n`),
    close: () => {
      input.off("data", onData);
      input.off("end", onEnd);
      input.pause();
    },
  };
  return prompter;
}

/** Applies the backspaces (DEL or BS) typed in raw mode to the text before them. */
function eraseBackspaces(text: string): string {
  let out = "";
  for (const ch of text) {
    if (ch === "\x7f" || ch === "\b") out = out.slice(0, -1);
    else out += ch;
  }
  return out;
}
