/**
 * The two ends of a stdio transport for tests: an input the test writes lines into, and an
 * output sink that records what was written, whose flush can be held (a pipe the client is not
 * draining) and released.
 */
import type { StdioEnds } from "../../src/acp/stdio.ts";
import type { Sink } from "../../src/acp/stdout-writer.ts";

const decoder = new TextDecoder();

export class FakeSink implements Sink {
  #text = "";
  #held: { promise: Promise<number>; release: () => void } | undefined;
  #holdNext = false;

  /** Each write as it came: text, or the bytes handed over. */
  readonly writes: (string | Uint8Array)[] = [];

  write(chunk: string | ArrayBufferView | ArrayBuffer | SharedArrayBuffer): number {
    // The buffered stdout hands its sink text, or bytes as a Uint8Array.
    if (typeof chunk !== "string" && !(chunk instanceof Uint8Array)) throw new Error("expected text or bytes");
    this.writes.push(chunk);
    this.#text += typeof chunk === "string" ? chunk : decoder.decode(chunk);
    return chunk.length;
  }

  flush(): number | Promise<number> {
    if (this.#holdNext && !this.#held) {
      this.#holdNext = false;
      const { promise, resolve } = Promise.withResolvers<number>();
      this.#held = { promise, release: () => resolve(0) };
    }
    return this.#held?.promise ?? 0;
  }

  /** The next flush stays under way until `release()`. */
  holdNextFlush(): void {
    this.#holdNext = true;
  }

  /** Ends the flush under way. */
  release(): void {
    this.#held?.release();
    this.#held = undefined;
  }

  /** Everything written so far. */
  get text(): string {
    return this.#text;
  }

  /** The complete lines written so far, parsed. */
  messages(): Record<string, unknown>[] {
    return this.#text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

/** Fake stdio ends: `send` writes a line to the agent, `end` closes its input. */
export function fakeEnds(): StdioEnds & { output: FakeSink; send(message: unknown): void; end(): void } {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const input = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    input,
    output: new FakeSink(),
    send: (message) => controller?.enqueue(encoder.encode(`${JSON.stringify(message)}\n`)),
    end: () => controller?.close(),
  };
}
