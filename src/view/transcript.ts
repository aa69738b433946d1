/**
 * A readable transcript of what a client shows, as text: the session's title, then what the one
 * renderer (TranscriptStream) draws of its updates (messages, thinking, tool cards with their
 * diffs, command output, questions and answers, plans and mode changes where they happened), then
 * the closing line. Whatever came from content is drawn through `visible`, so no control
 * character from it reaches the terminal.
 */
import { titlePieces, type Mark, type Piece } from "./transcript-lines.ts";
import { TranscriptRecorder as Recorder, TranscriptStream } from "./transcript-stream.ts";
import type { ViewModel } from "./view-model.ts";

export type { Mark } from "./transcript-lines.ts";

/** Folds updates (see TranscriptStream's recorder); `render()` draws the whole transcript. */
export class TranscriptRecorder extends Recorder {
  render(): string {
    return renderTranscript(this.view, this.marks);
  }

  /** The whole transcript as pieces (what `render` joins): for a terminal to paint. */
  pieces(): Piece[] {
    return transcriptPieces(this.view, this.marks);
  }
}

/** The plain text of pieces. */
export const plainText = (pieces: Iterable<Piece>): string => {
  let text = "";
  for (const piece of pieces) text += piece.text;
  return text;
};

/**
 * The transcript of a view: its title, every part, then the closing line. With `marks` (from a
 * TranscriptRecorder), plans and mode changes are drawn where they happened; without, the latest
 * plan closes the transcript.
 */
export function renderTranscript(view: ViewModel, marks?: Mark[]): string {
  return plainText(transcriptPieces(view, marks));
}

function transcriptPieces(view: ViewModel, marks?: Mark[]): Piece[] {
  const pieces: Piece[] = [...titlePieces(view)];
  const stream = new TranscriptStream((piece) => pieces.push(piece), marks ? { view, marks } : { view });
  stream.close();
  return pieces;
}
