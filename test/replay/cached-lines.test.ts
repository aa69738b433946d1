/**
 * What a replay cache row's lines may be, checked on the bytes a load reads from the store as on
 * text: a row of the session's own `session/update` notifications passes, whatever characters
 * its content holds; anything else is refused.
 */
import { describe, expect, test } from "bun:test";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { linesAreUpdatesOf } from "../../src/replay/cached-lines.ts";
import { updateLine } from "../../src/replay/replay-segments.ts";

const SESSION = "ses_lines";
const bytes = (text: string) => new TextEncoder().encode(text);
const chunk = (text: string): SessionUpdate => ({
  sessionUpdate: "agent_message_chunk",
  content: { type: "text", text },
});
const toolCall = (rawInput: Record<string, unknown>): SessionUpdate => ({
  sessionUpdate: "tool_call",
  toolCallId: "call_1",
  title: "Read",
  rawInput,
});

describe("a replay cache row's lines", () => {
  test("of the session's updates pass, as bytes and as text, with characters of any width in them", () => {
    const row = updateLine(SESSION, chunk("naïve café 日本語 🎉")) + updateLine(SESSION, chunk("plain"));
    expect(linesAreUpdatesOf(row, SESSION)).toBe(true);
    expect(linesAreUpdatesOf(bytes(row), SESSION)).toBe(true);
  });

  test("whose content holds envelope keys and escapes are parsed whole, and pass", () => {
    const row = updateLine(SESSION, toolCall({ id: 7, method: "GET", path: "dé\u0001jà/日本" }));
    expect(linesAreUpdatesOf(bytes(row), SESSION)).toBe(true);
  });

  test("with an id added after the update are refused, as bytes and as text, behind characters of any width", () => {
    const line = updateLine(SESSION, chunk("日本語 🎉"));
    const forged = `${line.slice(0, -2)},"id":5}\n`;
    expect(linesAreUpdatesOf(forged, SESSION)).toBe(false);
    expect(linesAreUpdatesOf(bytes(forged), SESSION)).toBe(false);
  });

  test("of another session, or without their last newline, are refused", () => {
    expect(linesAreUpdatesOf(bytes(updateLine("ses_other", chunk("x"))), SESSION)).toBe(false);
    expect(linesAreUpdatesOf(bytes(updateLine(SESSION, chunk("x")).trimEnd()), SESSION)).toBe(false);
  });
});
