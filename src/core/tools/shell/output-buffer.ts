/**
 * Output caps. A command's output keeps its beginning and its end (errors and summaries are
 * usually last) and says how much was left out in between; other text keeps its beginning.
 */

/** The first `max` characters of `text`, and whether anything was cut. */
export function capText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  return { text: text.slice(0, max), truncated: true };
}

/** Collects streamed output in bounded memory: the first `max / 4` and the last `3 * max / 4` characters. */
export class OutputBuffer {
  #head = "";
  #tail = "";
  #total = 0;
  readonly #headMax: number;
  readonly #tailMax: number;

  constructor(readonly max: number) {
    this.#headMax = Math.floor(max / 4);
    this.#tailMax = max - this.#headMax;
  }

  append(chunk: string): void {
    this.#total += chunk.length;
    if (this.#head.length < this.#headMax) {
      const room = this.#headMax - this.#head.length;
      this.#head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk === "") return;
    this.#tail += chunk;
    if (this.#tail.length > this.#tailMax * 2) this.#tail = this.#tail.slice(-this.#tailMax);
  }

  /** Characters received in all. */
  get total(): number {
    return this.#total;
  }

  get truncated(): boolean {
    return this.#total > this.max;
  }

  /** The kept output, with a visible note where characters were left out. */
  text(): string {
    if (!this.truncated) return this.#head + this.#tail;
    const tail = this.#tail.slice(-this.#tailMax);
    const omitted = this.#total - this.#head.length - tail.length;
    return `${this.#head}\n… [${omitted} characters of output omitted] …\n${tail}`;
  }

  /** The last `n` characters, for progress shown while a command runs. */
  last(n: number): string {
    const all =
      this.#tail.length >= n || this.#total === this.#head.length + this.#tail.length
        ? this.#head + this.#tail
        : this.#tail;
    return all.slice(-n);
  }
}
