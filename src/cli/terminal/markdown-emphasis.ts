/**
 * Markdown emphasis for an answer as it streams to a terminal: **bold** and `code` are drawn
 * styled with their markers left out; # headings and fenced code blocks are styled whole, as
 * written. Streaming: a marker split across chunks is held back until the next chunk (or the end)
 * says what it is. Styles end at each line break. The text has been through `visible` already;
 * only these codes are added.
 */
import { SGR } from "./ansi.ts";

export class MarkdownEmphasis {
  #held = "";
  #lineStart = true;
  /** The current line is a heading, a fence line or inside a fenced block: styled whole. */
  #line: "text" | "heading" | "code" = "text";
  #inFence = false;
  #bold = false;
  #code = false;

  /** The styled form of `text`, the next piece of the answer; `end` when the answer ends. */
  push(text: string, end = false): string {
    const input = this.#held + text;
    this.#held = "";
    let out = "";
    let i = 0;
    while (i < input.length) {
      const rest = input.slice(i);
      if (this.#lineStart) {
        const firstLine = rest.split("\n", 1)[0] as string;
        if (!end && !rest.includes("\n") && firstLine.length < 3 && "```".startsWith(firstLine)) {
          this.#held = rest;
          return out;
        }
        this.#lineStart = false;
        if (firstLine.startsWith("```")) {
          this.#inFence = !this.#inFence;
          this.#line = "code";
        } else if (this.#inFence) this.#line = "code";
        else if (/^#{1,6}( |$)/.test(firstLine)) this.#line = "heading";
        else this.#line = "text";
        out += this.#codes();
      }
      const ch = input[i] as string;
      if (ch === "\n") {
        out += `${SGR.reset}\n`;
        this.#lineStart = true;
        this.#bold = false;
        this.#code = false;
        i++;
        continue;
      }
      if (this.#line === "text" && ch === "`") {
        this.#code = !this.#code;
        out += SGR.reset + this.#codes();
        i++;
        continue;
      }
      if (this.#line === "text" && !this.#code && ch === "*") {
        if (i === input.length - 1 && !end) {
          this.#held = "*";
          return out;
        }
        if (input[i + 1] === "*") {
          this.#bold = !this.#bold;
          out += SGR.reset + this.#codes();
          i += 2;
          continue;
        }
      }
      out += ch;
      i++;
    }
    if (end && !this.#lineStart) out += SGR.reset;
    return out;
  }

  #codes(): string {
    if (this.#line === "code") return SGR.cyan;
    if (this.#line === "heading") return SGR.bold;
    return (this.#bold ? SGR.bold : "") + (this.#code ? SGR.cyan : "");
  }
}
