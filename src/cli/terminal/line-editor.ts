/**
 * One line editor for a whole terminal conversation: it holds the terminal in raw mode with
 * bracketed paste on from `start` to `close`, and reads every key in between, so nothing typed is
 * lost. Keys typed while no prompt waits (a turn runs) are kept, in order, for the next prompt;
 * Ctrl-C then goes to `onInterrupt` at once (the chat cancels its turn). At a prompt: Enter sends;
 * Alt+Enter, Ctrl-J, or `\` at the end of a line then Enter adds a new line; a paste is inserted
 * whole, its line breaks kept; Left/Right/Home/End/Backspace/Delete and Ctrl-A/E/K/U/W edit; Up and
 * Down go through the history (prompts sent before, for a read that keeps one); Ctrl-C clears what
 * is typed, or on an empty prompt answers an interrupt; Ctrl-D on an empty prompt answers the end.
 * The prompt and the text are drawn on `io.output` (stderr), the text through the escapes of
 * edit-layout.ts.
 */
import { StringDecoder } from "node:string_decoder";
import { EditBuffer } from "./edit-buffer.ts";
import { layout } from "./edit-layout.ts";
import { KeyDecoder, type Key } from "./keys.ts";

export type LineAnswer = { kind: "line"; text: string } | { kind: "interrupt" } | { kind: "end" };

export type TerminalInput = NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown; isTTY?: boolean };

export type TerminalIo = { input: TerminalInput; output: NodeJS.WritableStream & { columns?: number } };

const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";

type Reading = {
  prompt: string;
  buffer: EditBuffer;
  history: boolean;
  /** Where Up and Down are in the history: its length is the text being typed (`draft`). */
  at: number;
  draft: string;
  /** The row the terminal's cursor is on, from the prompt's first. */
  row: number;
  done: (answer: LineAnswer) => void;
};

export class LineEditor {
  readonly #decoder = new KeyDecoder();
  readonly #bytes = new StringDecoder("utf8");
  /** Keys not handled yet: typed ahead, or after the answer that ended the last read. */
  readonly #queue: Key[] = [];
  readonly #history: string[] = [];
  #reading: Reading | undefined;
  #started = false;

  constructor(
    private readonly io: TerminalIo,
    /** Ctrl-C while no prompt waits. */
    private readonly onInterrupt: () => void = () => undefined,
  ) {}

  /** Takes the terminal: raw mode, bracketed paste, every key read from now on. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.io.input.setRawMode?.(true);
    this.io.output.write(PASTE_ON);
    this.io.input.on("data", this.#onData);
    this.io.input.resume();
    process.once("exit", this.#restore);
  }

  /** Gives the terminal back as it was (a read still waiting answers the end). */
  close(): void {
    this.#reading?.done({ kind: "end" });
    if (!this.#started) return;
    this.#started = false;
    this.io.input.off("data", this.#onData);
    this.io.input.pause();
    process.off("exit", this.#restore);
    this.#restore();
  }

  /**
   * Shows `prompt` and answers what is typed after it. With `history`, Up and Down go through the
   * texts sent at earlier such reads, and the text sent joins them. `signal` ends the wait as an
   * interrupt.
   */
  read(prompt: string, options: { history?: boolean; signal?: AbortSignal } = {}): Promise<LineAnswer> {
    this.start();
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve({ kind: "interrupt" });
    return new Promise((resolve) => {
      const aborted = () => this.#finish({ kind: "interrupt" }, "\r\n");
      signal?.addEventListener("abort", aborted, { once: true });
      this.#reading = {
        prompt,
        buffer: new EditBuffer(),
        history: options.history === true,
        at: this.#history.length,
        draft: "",
        row: 0,
        done: (answer) => {
          signal?.removeEventListener("abort", aborted);
          this.#reading = undefined;
          resolve(answer);
        },
      };
      this.#draw();
      this.#drain();
    });
  }

  readonly #restore = (): void => {
    this.io.output.write(PASTE_OFF);
    this.io.input.setRawMode?.(false);
  };

  readonly #onData = (chunk: Buffer | string): void => {
    const text = typeof chunk === "string" ? chunk : this.#bytes.write(chunk);
    for (const key of this.#decoder.push(text)) {
      if (!this.#reading && key.kind === "key" && key.name === "interrupt") this.onInterrupt();
      else this.#queue.push(key);
    }
    this.#drain();
  };

  /** Handles queued keys while a read waits; draws once they are done. */
  #drain(): void {
    const reading = this.#reading;
    if (!reading || this.#queue.length === 0) return;
    while (this.#queue.length > 0 && this.#reading === reading) this.#handle(reading, this.#queue.shift() as Key);
    if (this.#reading === reading) this.#draw();
  }

  #handle(reading: Reading, key: Key): void {
    const { buffer } = reading;
    if (key.kind !== "key") buffer.insert(key.text);
    else if (key.name === "enter") this.#enter(reading);
    else if (key.name === "interrupt") {
      if (buffer.text !== "") buffer.replace("");
      else this.#finish({ kind: "interrupt" }, "^C\r\n");
    } else if (key.name === "eof") {
      if (buffer.text !== "") buffer.edit("delete");
      else this.#finish({ kind: "end" }, "\r\n");
    } else if (key.name === "up" || key.name === "down") this.#browse(reading, key.name === "up" ? -1 : 1);
    else buffer.edit(key.name);
  }

  /** Enter sends, but after a `\` at the end of what is before the cursor, which it turns into a new line. */
  #enter(reading: Reading): void {
    const { buffer } = reading;
    if (buffer.text.slice(0, buffer.cursor).endsWith("\\")) {
      buffer.edit("backspace");
      buffer.insert("\n");
    } else this.#send(reading);
  }

  #send(reading: Reading): void {
    const text = reading.buffer.text;
    if (reading.history && text.trim() !== "" && this.#history.at(-1) !== text) this.#history.push(text);
    this.#finish({ kind: "line", text }, "\r\n");
  }

  /** Up (-1) or Down (+1) through the history; past its end, the text that was being typed. */
  #browse(reading: Reading, step: -1 | 1): void {
    if (!reading.history) return;
    const at = reading.at + step;
    if (at < 0 || at > this.#history.length) return;
    if (reading.at === this.#history.length) reading.draft = reading.buffer.text;
    reading.at = at;
    reading.buffer.replace(at === this.#history.length ? reading.draft : (this.#history[at] as string));
  }

  /** Draws the text whole with the cursor at its end, writes `after`, and answers. */
  #finish(answer: LineAnswer, after: string): void {
    const reading = this.#reading;
    if (!reading) return;
    reading.buffer.cursor = reading.buffer.text.length;
    const end = this.#draw();
    this.io.output.write(end ? after.replace(/^\r\n/, "") : after);
    reading.done(answer);
  }

  /** Draws the prompt and its text over what was drawn for them; returns whether the cursor ended on a row of its own. */
  #draw(): boolean {
    const reading = this.#reading;
    if (!reading) return false;
    // A terminal that reports no size (0, as a bare pseudo-terminal does) is taken as 80 wide.
    const columns = this.io.output.columns ?? 0;
    const cols = columns >= 2 ? columns : 80;
    const { buffer } = reading;
    const drawn = layout(reading.prompt, buffer.text, buffer.cursor, cols);
    const up = reading.row > 0 ? `\x1b[${reading.row}A` : "";
    const back = drawn.endRow > drawn.cursorRow ? `\x1b[${drawn.endRow - drawn.cursorRow}A` : "";
    const right = drawn.cursorCol > 0 ? `\x1b[${drawn.cursorCol}C` : "";
    this.io.output.write(`\r${up}\x1b[J${drawn.text}${back}\r${right}`);
    reading.row = drawn.cursorRow;
    return drawn.text.endsWith("\r\n") && drawn.cursorCol === 0;
  }
}
