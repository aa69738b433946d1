/** Splitting `<think>` tags out of a streamed chat answer, wherever the chunks break. */
import { describe, expect, test } from "bun:test";
import { ThinkTagSplitter, type Piece } from "../../src/core/providers/openai-chat/think-tags.ts";

function run(chunks: string[]): { thinking: string; answer: string } {
  const splitter = new ThinkTagSplitter();
  const pieces: Piece[] = [...chunks.flatMap((c) => splitter.push(c)), ...splitter.flush()];
  return {
    thinking: pieces
      .filter((p) => p.stream === "thinking")
      .map((p) => p.text)
      .join(""),
    answer: pieces
      .filter((p) => p.stream === "answer")
      .map((p) => p.text)
      .join(""),
  };
}

const TEXT = "<think>\nFirst, the user wants X.\n</think>\n\nHere is X.";

describe("think tags", () => {
  test("every split of the stream into two chunks gives the same thinking and answer", () => {
    for (let i = 0; i <= TEXT.length; i++) {
      expect(run([TEXT.slice(0, i), TEXT.slice(i)])).toEqual({
        thinking: "First, the user wants X.\n",
        answer: "Here is X.",
      });
    }
  });

  test("one character at a time works too", () => {
    expect(run([...TEXT])).toEqual({ thinking: "First, the user wants X.\n", answer: "Here is X." });
  });

  test("an answer without tags is all answer, even if it mentions <think> later", () => {
    expect(run(["Use a <think> tag ", "to mark reasoning."])).toEqual({
      thinking: "",
      answer: "Use a <think> tag to mark reasoning.",
    });
  });

  test("a tag after leading whitespace still opens thinking", () => {
    expect(run(["\n  <think>why</think>because"])).toEqual({ thinking: "why", answer: "because" });
  });

  test("thinking that never closes stays thinking", () => {
    expect(run(["<think>still going</th"])).toEqual({ thinking: "still going</th", answer: "" });
  });

  test("a stream that is only the start of a tag is shown as answer", () => {
    expect(run(["<thi"])).toEqual({ thinking: "", answer: "<thi" });
  });
});
