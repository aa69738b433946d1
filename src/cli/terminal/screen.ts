/**
 * Where a terminal session is drawn: the transcript on stdout (through the one renderer, painted
 * for a terminal or plain), progress and questions on stderr, and at a terminal one status line
 * on stderr (how long the model has been waited for), redrawn in place and erased before anything
 * else is drawn. When both are the same terminal, a progress or status line never glues onto an
 * unfinished transcript line: the line is ended first, and the line end the transcript then
 * draws for it is not drawn twice.
 */
import { TranscriptStream } from "../../view/transcript-stream.ts";
import type { Piece } from "../../view/transcript-lines.ts";
import { colourOn } from "./ansi.ts";
import { Painter } from "./painter.ts";

type Write = (text: string) => void;

export type ScreenOptions = {
  /** Draw the transcript on stdout (false under --json, where stdout holds JSON lines). */
  transcript: boolean;
  /** Colour on stdout. */
  colour: boolean;
  /** stdout and stderr are both a terminal (the same screen, as far as anyone can tell). */
  shared: boolean;
  /** stderr is a terminal: a status line may be drawn and erased there. */
  status?: boolean;
};

/** What the process's own streams are: colour where each is a terminal and NO_COLOR is not set. */
export function processScreenOptions(transcript: boolean, env = process.env): ScreenOptions {
  return {
    transcript,
    colour: colourOn(process.stdout, env),
    shared: process.stdout.isTTY === true && process.stderr.isTTY === true,
    status: process.stderr.isTTY === true,
  };
}

export class Screen {
  readonly transcript: TranscriptStream;
  readonly #painter: Painter;
  #lineOpen = false;
  /** The screen ended a transcript line early (for a progress or status line): the transcript's own line end is already drawn. */
  #endedEarly = false;
  #statusShown = false;

  constructor(
    private readonly out: Write,
    private readonly err: Write,
    readonly options: ScreenOptions,
  ) {
    this.#painter = new Painter(options.colour);
    this.transcript = new TranscriptStream((piece) => this.#draw(piece));
  }

  /** A line (or lines) on stderr, after ending any unfinished transcript line on the same terminal. */
  progress(text: string): void {
    this.#clearStatus();
    this.#endLine();
    this.err(text);
  }

  /** Shows `text` as the status line (one line, no line end), or erases it (undefined). Only at a terminal. */
  status(text: string | undefined): void {
    if (!this.options.status) return;
    if (text === undefined) {
      this.#clearStatus();
      return;
    }
    this.#endLine();
    this.err(`\r\x1b[2K${text}`);
    this.#statusShown = true;
  }

  #clearStatus(): void {
    if (!this.#statusShown) return;
    this.#statusShown = false;
    this.err("\r\x1b[2K");
  }

  #endLine(): void {
    if (this.#lineOpen && this.options.shared) {
      this.out("\n");
      this.#endedEarly = true;
    }
    this.#lineOpen = false;
  }

  #draw(piece: Piece): void {
    if (!this.options.transcript) return;
    let text = this.#painter.paint(piece);
    if (!text) return;
    this.#clearStatus();
    if (this.#endedEarly && text.startsWith("\n")) text = text.slice(1);
    this.#endedEarly = false;
    this.out(text);
    this.#lineOpen = !piece.text.endsWith("\n");
  }
}
