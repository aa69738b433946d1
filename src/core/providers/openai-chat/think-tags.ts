/**
 * Thinking written inline as `<think>…</think>` at the start of a chat answer (DeepSeek-R1,
 * Qwen and others behind servers that do not split it out). Streaming-safe: a tag split across
 * chunks is held until it is complete. Only a tag at the very start of the answer opens
 * thinking, so an answer that talks about `<think>` tags is left alone.
 */
const OPEN = "<think>";
const CLOSE = "</think>";

export type Piece = { stream: "thinking" | "answer"; text: string };

export class ThinkTagSplitter {
  #state: "start" | "thinking" | "answer" = "start";
  #held = "";
  /** Drop the line breaks that follow a tag (the models put one after each). */
  #trimNext = false;

  push(text: string): Piece[] {
    const pieces: Piece[] = [];
    let buffer = this.#held + text;
    this.#held = "";
    while (buffer) {
      if (this.#state === "start") {
        const lead = buffer.trimStart();
        if (lead.startsWith(OPEN)) {
          buffer = lead.slice(OPEN.length);
          this.#state = "thinking";
          this.#trimNext = true;
          continue;
        }
        if (OPEN.startsWith(lead)) {
          this.#held = buffer; // could still become "<think>"
          return pieces;
        }
        this.#state = "answer";
      }
      if (this.#state === "answer") {
        this.#emit(pieces, "answer", buffer);
        return pieces;
      }
      const end = buffer.indexOf(CLOSE);
      if (end >= 0) {
        this.#emit(pieces, "thinking", buffer.slice(0, end));
        buffer = buffer.slice(end + CLOSE.length);
        this.#state = "answer";
        this.#trimNext = true;
        continue;
      }
      const partial = partialSuffix(buffer, CLOSE);
      this.#emit(pieces, "thinking", buffer.slice(0, buffer.length - partial));
      this.#held = buffer.slice(buffer.length - partial);
      return pieces;
    }
    return pieces;
  }

  /** What is still held at the end of the stream, as what it turned out to be. */
  flush(): Piece[] {
    const held = this.#held;
    this.#held = "";
    if (!held) return [];
    const pieces: Piece[] = [];
    this.#emit(pieces, this.#state === "thinking" ? "thinking" : "answer", held);
    return pieces;
  }

  #emit(pieces: Piece[], stream: Piece["stream"], text: string): void {
    let out = text;
    if (this.#trimNext) {
      out = out.replace(/^[\r\n]+/, "");
      if (out) this.#trimNext = false;
    }
    if (out) pieces.push({ stream, text: out });
  }
}

/** The length of the longest end of `text` that is a beginning of `tag`. */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
