/**
 * A text file's lines, read a chunk at a time: a large file (a session export can be hundreds of
 * megabytes) is never held whole, nor split into a second copy of itself.
 */
import { createReadStream } from "node:fs";

/** Each line of `file` without its "\n" (UTF-8); a last line without a newline too, if not empty. */
export async function* fileLines(file: string): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let partial = "";
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    // Only the new text is searched for newlines: a line of many chunks is not scanned again each time.
    const piece = decoder.decode(chunk as Buffer, { stream: true });
    let start = 0;
    for (let end = piece.indexOf("\n"); end !== -1; end = piece.indexOf("\n", start)) {
      yield partial + piece.slice(start, end);
      partial = "";
      start = end + 1;
    }
    partial += piece.slice(start);
  }
  partial += decoder.decode();
  if (partial !== "") yield partial;
}
