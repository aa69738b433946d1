/**
 * What a terminal in raw mode sends, as keys: text typed, a paste (between the bracketed-paste
 * marks `ESC [200~` and `ESC [201~`, kept whole, its line breaks as "\n"), and the editing keys a
 * line editor reads. A sequence split across reads is held until the rest arrives. Keys it does
 * not know are dropped, never inserted as text. Pure.
 */

export type KeyName =
  | "enter"
  | "newline"
  | "backspace"
  | "delete"
  | "left"
  | "right"
  | "word-left"
  | "word-right"
  | "up"
  | "down"
  | "home"
  | "end"
  | "kill-start"
  | "kill-end"
  | "delete-word"
  | "interrupt"
  | "eof";

export type Key = { kind: "text"; text: string } | { kind: "paste"; text: string } | { kind: "key"; name: KeyName };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Control characters and what they do (Enter is a carriage return in raw mode; Ctrl-J a line feed). */
const CONTROLS: Record<string, KeyName> = {
  "\r": "enter",
  "\n": "newline",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x01": "home",
  "\x05": "end",
  "\x02": "left",
  "\x06": "right",
  "\x10": "up",
  "\x0e": "down",
  "\x03": "interrupt",
  "\x04": "eof",
  "\x0b": "kill-end",
  "\x15": "kill-start",
  "\x17": "delete-word",
};

/** CSI sequences by their parameters and final byte. */
const CSI: Record<string, KeyName> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  "1~": "home",
  "7~": "home",
  "4~": "end",
  "8~": "end",
  "3~": "delete",
  "1;5C": "word-right",
  "1;5D": "word-left",
  "1;3C": "word-right",
  "1;3D": "word-left",
};

const SS3: Record<string, KeyName> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end" };

/** ESC then one key: Alt+Enter adds a line, Alt+b / Alt+f move by word, Alt+Backspace deletes one. */
const ALT: Record<string, KeyName> = {
  "\r": "newline",
  "\n": "newline",
  b: "word-left",
  f: "word-right",
  "\x7f": "delete-word",
};

export class KeyDecoder {
  #pending = "";
  /** Inside a paste: what it has brought so far. */
  #paste: string | undefined;

  /** The keys `chunk` completes, in order. */
  push(chunk: string): Key[] {
    let input = this.#pending + chunk;
    this.#pending = "";
    const keys: Key[] = [];
    while (input.length > 0) {
      if (this.#paste !== undefined) {
        const end = input.indexOf(PASTE_END);
        if (end < 0) {
          // The end mark may be split: keep a tail that could be its start.
          const keep = partialSuffix(input, PASTE_END);
          this.#paste += input.slice(0, input.length - keep);
          this.#pending = input.slice(input.length - keep);
          return keys;
        }
        keys.push({ kind: "paste", text: this.#paste + input.slice(0, end) });
        this.#paste = undefined;
        input = input.slice(end + PASTE_END.length);
        continue;
      }
      const taken = this.#one(input, keys);
      if (taken === 0) {
        this.#pending = input;
        break;
      }
      input = input.slice(taken);
    }
    return keys.map((key) => (key.kind === "paste" ? { kind: "paste", text: lineBreaks(key.text) } : key));
  }

  /** Decodes the key at the start of `input` into `keys`; returns how much it took (0: incomplete). */
  #one(input: string, keys: Key[]): number {
    const first = input[0] as string;
    if (first === "\x1b") return this.#escape(input, keys);
    const control = CONTROLS[first];
    if (control) {
      keys.push({ kind: "key", name: control });
      return 1;
    }
    const text = /^[^\x00-\x1f\x7f]+/.exec(input)?.[0];
    if (text) {
      const last = keys.at(-1);
      if (last?.kind === "text") last.text += text;
      else keys.push({ kind: "text", text });
      return text.length;
    }
    if (first === "\t") {
      keys.push({ kind: "text", text: "\t" });
      return 1;
    }
    return 1; // another control character: nothing
  }

  #escape(input: string, keys: Key[]): number {
    if (input.length === 1) return 0;
    const second = input[1] as string;
    if (second === "[") {
      const match = /^\x1b\[([0-9;]*)([\x20-\x2f]*)([\x40-\x7e])/.exec(input);
      if (!match) return /^\x1b\[[0-9;\x20-\x2f]*$/.test(input) ? 0 : 2;
      const body = `${match[1]}${match[3]}`;
      if (`\x1b[${body}` === PASTE_START) this.#paste = "";
      else {
        const name = CSI[body];
        if (name) keys.push({ kind: "key", name });
      }
      return match[0].length;
    }
    if (second === "O") {
      if (input.length < 3) return 0;
      const name = SS3[input[2] as string];
      if (name) keys.push({ kind: "key", name });
      return 3;
    }
    const alt = ALT[second];
    if (alt) keys.push({ kind: "key", name: alt });
    return 2;
  }
}

/** How many characters at the end of `text` are the start of `mark`. */
function partialSuffix(text: string, mark: string): number {
  for (let n = Math.min(mark.length - 1, text.length); n > 0; n--) if (mark.startsWith(text.slice(-n))) return n;
  return 0;
}

/** A paste's line breaks, whatever the terminal sent for them (a carriage return, mostly), as "\n". */
const lineBreaks = (text: string): string => text.replace(/\r\n?/g, "\n");
