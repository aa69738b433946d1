/**
 * Turns transcript pieces into what a stream prints: their plain text, or on a terminal the same
 * text with colour by what each piece is and an answer's markdown emphasis. Colour never changes
 * the text itself, so a transcript on a terminal reads as it does in a file.
 */
import type { Piece, Style } from "../../view/transcript-lines.ts";
import { SGR, wrapLines } from "./ansi.ts";
import { MarkdownEmphasis } from "./markdown-emphasis.ts";

const colours: Record<Exclude<Style, "agent">, string> = {
  user: SGR.bold,
  thought: SGR.dim,
  notice: SGR.yellow,
  "card-completed": SGR.green,
  "card-failed": SGR.red,
  "card-open": SGR.yellow,
  question: SGR.cyan,
  subagent: SGR.magenta,
  output: "",
  "diff-file": SGR.bold,
  "diff-hunk": SGR.cyan,
  "diff-add": SGR.green,
  "diff-remove": SGR.red,
  "diff-context": "",
  mark: SGR.dim,
};

export class Painter {
  #emphasis: MarkdownEmphasis | undefined;

  constructor(readonly colour: boolean) {}

  paint(piece: Piece): string {
    if (!this.colour) return piece.text;
    if (piece.style !== "agent") {
      const held = this.#endAnswer();
      return held + wrapLines(piece.text, colours[piece.style]);
    }
    if (piece.end) return this.#endAnswer() + piece.text;
    this.#emphasis ??= new MarkdownEmphasis();
    return this.#emphasis.push(piece.text);
  }

  #endAnswer(): string {
    const held = this.#emphasis?.push("", true) ?? "";
    this.#emphasis = undefined;
    return held;
  }
}
