/**
 * What the start of a JSON-RPC message says about it, read without parsing the whole message:
 * for a line too large to parse, its id (to answer it) and whether it is a request or a response.
 */

export type Envelope = {
  /** The message's `id`, when its value was read whole (a string, a finite number or null). */
  id?: string | number | null;
  /** True when a `method` member was read: a request, or a notification if it has no id. */
  method: boolean;
  /** True when a `result` or `error` member was read, and no `method`: a response. */
  response: boolean;
};

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

/**
 * Reads the top-level members of the JSON object `head` starts with, as far as `head` goes, and
 * returns what they say. Never throws: a head that is not an object, or is cut anywhere, yields
 * what was read before the cut.
 */
export function sniffEnvelope(head: string): Envelope {
  const found: Envelope = { method: false, response: false };
  const scan = new Scanner(head);
  if (scan.next() !== "{") return found;
  for (;;) {
    const key = scan.string();
    if (key === undefined || scan.next() !== ":") break;
    const start = scan.skipSpace();
    const end = scan.value();
    if (end === undefined) {
      // Cut inside this value: its key still tells what kind of message this is.
      if (key === "method") found.method = true;
      if (key === "result" || key === "error") found.response = true;
      break;
    }
    const raw = head.slice(start, end);
    if (key === "id" && !("id" in found)) {
      const id = parseId(raw);
      if (id !== undefined) found.id = id;
    }
    if (key === "method") found.method = true;
    if (key === "result" || key === "error") found.response = true;
    const separator = scan.next();
    if (separator !== ",") break;
  }
  if (found.method) found.response = false;
  return found;
}

function parseId(raw: string): string | number | null | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    if (value === null || typeof value === "string") return value;
    if (typeof value === "number" && Number.isFinite(value)) return value;
  } catch {
    // Not a whole JSON value: no id.
  }
  return undefined;
}

/** A cursor over JSON text that skips values without building them. */
class Scanner {
  #at = 0;
  constructor(private readonly text: string) {}

  /** Skips whitespace; returns the position of the next character. */
  skipSpace(): number {
    while (this.#at < this.text.length && WHITESPACE.has(this.text[this.#at] as string)) this.#at++;
    return this.#at;
  }

  /** The next non-space character, consumed (undefined at the end). */
  next(): string | undefined {
    this.skipSpace();
    return this.text[this.#at++];
  }

  /** A whole JSON string (decoded), or undefined when there is none here or it is cut. */
  string(): string | undefined {
    const start = this.skipSpace();
    const end = this.#stringEnd(start);
    if (end === undefined) return undefined;
    this.#at = end;
    try {
      return JSON.parse(this.text.slice(start, end)) as string;
    } catch {
      return undefined;
    }
  }

  /** Skips one JSON value; returns the position after it, or undefined when it is cut or malformed. */
  value(): number | undefined {
    const start = this.skipSpace();
    const first = this.text[start];
    if (first === undefined) return undefined;
    if (first === '"') {
      const end = this.#stringEnd(start);
      if (end !== undefined) this.#at = end;
      return end;
    }
    if (first === "{" || first === "[") return this.#container(start);
    // A number or literal: it ends at a delimiter, which must be present (else it may be cut).
    let at = start;
    while (
      at < this.text.length &&
      !WHITESPACE.has(this.text[at] as string) &&
      !",}]".includes(this.text[at] as string)
    )
      at++;
    if (at === this.text.length || at === start) return undefined;
    this.#at = at;
    return at;
  }

  #container(start: number): number | undefined {
    let depth = 0;
    let at = start;
    while (at < this.text.length) {
      const c = this.text[at];
      if (c === '"') {
        const end = this.#stringEnd(at);
        if (end === undefined) return undefined;
        at = end;
        continue;
      }
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) {
          this.#at = at + 1;
          return at + 1;
        }
      }
      at++;
    }
    return undefined;
  }

  /** The position after the string starting at `start` (a quote), or undefined if none or cut. */
  #stringEnd(start: number): number | undefined {
    if (this.text[start] !== '"') return undefined;
    let at = start + 1;
    while (at < this.text.length) {
      const c = this.text[at];
      if (c === "\\") at += 2;
      else if (c === '"') return at + 1;
      else at++;
    }
    return undefined;
  }
}
