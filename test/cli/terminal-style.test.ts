/** Colour and markdown emphasis on a terminal only, NO_COLOR honoured; the text itself never changes. */
import { describe, expect, test } from "bun:test";
import { colourOn } from "../../src/cli/terminal/ansi.ts";
import { MarkdownEmphasis } from "../../src/cli/terminal/markdown-emphasis.ts";
import { Painter } from "../../src/cli/terminal/painter.ts";
import { Screen } from "../../src/cli/terminal/screen.ts";

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

describe("colour", () => {
  test("only on a terminal, and not with NO_COLOR set or TERM=dumb", () => {
    expect(colourOn({ isTTY: true }, {})).toBe(true);
    expect(colourOn({ isTTY: false }, {})).toBe(false);
    expect(colourOn({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(colourOn({ isTTY: true }, { NO_COLOR: "" })).toBe(true);
    expect(colourOn({ isTTY: true }, { TERM: "dumb" })).toBe(false);
  });

  test("a plain painter prints the pieces' text exactly", () => {
    const painter = new Painter(false);
    expect(painter.paint({ style: "agent", text: "**bold** and `code`" })).toBe("**bold** and `code`");
    expect(painter.paint({ style: "diff-add", text: "+x\n" })).toBe("+x\n");
  });

  test("styles end at each line break, so another stream's line never inherits them", () => {
    const painted = new Painter(true).paint({ style: "diff-add", text: "+a\n+b\n" });
    expect(painted).toBe("\x1b[32m+a\x1b[0m\n\x1b[32m+b\x1b[0m\n");
  });
});

describe("markdown emphasis as an answer streams", () => {
  test("bold and code are styled and their markers left out, even split across chunks", () => {
    const m = new MarkdownEmphasis();
    const out = m.push("say *") + m.push("*loud** and `x` ok") + m.push("", true);
    expect(plain(out)).toBe("say loud and x ok");
    expect(out).toContain("\x1b[1mloud");
    expect(out).toContain("\x1b[36mx");
  });

  test("a lone asterisk stays", () => {
    const m = new MarkdownEmphasis();
    expect(plain(m.push("2 * 3", true))).toBe("2 * 3");
  });

  test("a heading is bold; a fenced block is styled whole, markers inside it left as they are", () => {
    const m = new MarkdownEmphasis();
    const out = m.push("# Title\n``") + m.push("`\na **b**\n```\n", true);
    expect(plain(out)).toBe("# Title\n```\na **b**\n```\n");
    expect(out).toContain("\x1b[1m# Title");
    expect(out).toContain("\x1b[36ma **b**");
  });
});

describe("the screen", () => {
  test("a progress line on the same terminal never glues onto an unfinished transcript line", () => {
    const shown: string[] = [];
    const screen = new Screen(
      (t) => shown.push(t),
      (t) => shown.push(t),
      { transcript: true, colour: false, shared: true },
    );
    screen.transcript.apply({
      sessionUpdate: "agent_message_chunk",
      messageId: "m1",
      content: { type: "text", text: "Let me read a.txt." },
    });
    screen.progress("… Read a.txt\n");
    expect(shown.join("")).toBe("Let me read a.txt.\n… Read a.txt\n");
  });
});
