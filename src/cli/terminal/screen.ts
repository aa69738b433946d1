/**
 * Where a terminal session is drawn: the transcript on stdout (through the one renderer, painted
 * for a terminal or plain), progress and questions on stderr. When both are the same terminal, a
 * progress line never glues onto an unfinished transcript line: the line is ended first.
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
};

/** What the process's own streams are: colour where each is a terminal and NO_COLOR is not set. */
export function processScreenOptions(transcript: boolean, env = process.env): ScreenOptions {
  return {
    transcript,
    colour: colourOn(process.stdout, env),
    shared: process.stdout.isTTY === true && process.stderr.isTTY === true,
  };
}

export class Screen {
  readonly transcript: TranscriptStream;
  readonly #painter: Painter;
  #lineOpen = false;

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
    if (this.#lineOpen && this.options.shared) this.out("\n");
    this.#lineOpen = false;
    this.err(text);
  }

  #draw(piece: Piece): void {
    if (!this.options.transcript) return;
    const text = this.#painter.paint(piece);
    if (!text) return;
    this.out(text);
    this.#lineOpen = !piece.text.endsWith("\n");
  }
}
