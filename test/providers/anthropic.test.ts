/**
 * Anthropic specifics: thinking signatures and redacted thinking kept private and given back
 * unchanged, prompt-cache breakpoints, the thinking configuration per model, cache usage and cost.
 */
import { describe, expect, test } from "bun:test";
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages";
import { buildRequest } from "../../src/core/providers/anthropic/request.ts";
import { modelInfo } from "../../src/core/providers/known-models.ts";
import type { ModelMessage } from "../../src/replay/model-messages.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { collect, providerFor, providerRequest, readTool, summarize, userSays } from "../support/provider-events.ts";
import { anthropicKit as kit } from "../support/provider-kits.ts";
import { anthropicErrorEvent, anthropicStream } from "../support/sse/anthropic.ts";

const model = { provider: "anthropic", model: "claude-sonnet-4-6" };

const lower = (
  messages: ModelMessage[],
  overrides: { model?: string; thoughtLevel?: "off" | "low" | "medium" | "high" } = {},
) =>
  buildRequest(
    providerRequest(kit, {
      messages,
      ...(overrides.model ? { model: overrides.model } : {}),
      thoughtLevel: overrides.thoughtLevel ?? "medium",
    }),
    "anthropic",
    modelInfo("anthropic", overrides.model ?? kit.model, undefined),
  ) as MessageCreateParamsStreaming;

describe("thinking", () => {
  test("the signature is kept in the step's continuity, not shown", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: anthropicStream([
        { type: "thinking", thinking: "Let me check.", signature: "SIG-abc" },
        { type: "text", text: "Done." },
      ]),
    });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.thinking).toBe("Let me check.");
    expect(s.thinking + s.text + s.notices.join()).not.toContain("SIG-abc");
    expect(s.final).toMatchObject({
      type: "done",
      continuity: {
        format: "anthropic-messages/1",
        blocks: [
          { type: "thinking", thinking: "Let me check.", signature: "SIG-abc" },
          { type: "text", chars: 5 },
        ],
      },
    });
  });

  test("redacted thinking is kept whole and shown only as a short notice", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: anthropicStream([
        { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4a" },
        { type: "text", text: "Here you go." },
      ]),
    });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.thinking).toBe("");
    expect(s.notices).toEqual([expect.stringContaining("redacted")]);
    expect(s.notices.join()).not.toContain("EmwKAhgB");
    expect(s.final).toMatchObject({
      continuity: {
        blocks: [
          { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4a" },
          { type: "text", chars: 12 },
        ],
      },
    });
  });

  test("a recorded step goes back in its original block order, signatures and redacted data unchanged", () => {
    const body = lower([
      userSays("Read the README"),
      {
        role: "assistant",
        text: "Reading it.",
        calls: [{ providerCallId: "toolu_1", name: "Read", input: { file_path: "/w/README.md" } }],
        continuity: {
          format: "anthropic-messages/1",
          blocks: [
            { type: "thinking", thinking: "I should read it.", signature: "SIG-1" },
            { type: "redacted_thinking", data: "REDACTED-1" },
            { type: "text", chars: 11 },
            { type: "call", id: "toolu_1" },
          ],
        },
        model,
      },
      {
        role: "tool_results",
        results: [{ providerCallId: "toolu_1", name: "Read", text: "# Sample", isError: false }],
      },
    ]);
    expect(body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should read it.", signature: "SIG-1" },
        { type: "redacted_thinking", data: "REDACTED-1" },
        { type: "text", text: "Reading it." },
        { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/w/README.md" } },
      ],
    });
    expect(body.messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "# Sample", cache_control: { type: "ephemeral" } },
      ],
    });
  });

  test("another provider's continuity is not sent to Anthropic", () => {
    const body = lower([
      userSays("Hi"),
      {
        role: "assistant",
        text: "Hello.",
        calls: [],
        continuity: {
          format: "anthropic-messages/1",
          blocks: [
            { type: "thinking", thinking: "x", signature: "S" },
            { type: "text", chars: 6 },
          ],
        },
        model: { provider: "other", model: "m" },
      },
      userSays("Again"),
    ]);
    expect(body.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Hello." }] });
  });

  test("adaptive thinking for newer models, budgets for older ones, disabled when off", () => {
    expect(lower([userSays("x")], { model: "claude-opus-5-5", thoughtLevel: "high" })).toMatchObject({
      thinking: { type: "adaptive", display: "summarized" },
      output_config: { effort: "high" },
    });
    const budget = lower([userSays("x")], { model: "claude-haiku-4-5", thoughtLevel: "low" });
    expect(budget.thinking).toEqual({ type: "enabled", budget_tokens: 4000 });
    expect(budget.max_tokens).toBeGreaterThan(4000);
    expect(lower([userSays("x")], { thoughtLevel: "off" }).thinking).toEqual({ type: "disabled" });
    expect(lower([userSays("x")], { thoughtLevel: "off" }).output_config).toBeUndefined();
  });
});

describe("prompt caching", () => {
  test("breakpoints on the system prompt, the last tool and the conversation's last block", () => {
    const body = lower([userSays("First"), { role: "assistant", text: "One.", calls: [], model }, userSays("Second")]);
    expect(body.system).toEqual([{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }]);
    expect(body.tools).toEqual([
      {
        name: "Read",
        description: readTool.description,
        input_schema: readTool.inputSchema,
        cache_control: { type: "ephemeral" },
      },
    ]);
    expect(body.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: "Second", cache_control: { type: "ephemeral" } }],
    });
    expect(JSON.stringify(body.messages.slice(0, -1))).not.toContain("cache_control");
  });

  test("tool results and the next prompt merge into one user message, results first", () => {
    const body = lower([
      userSays("Go"),
      { role: "assistant", text: "", calls: [{ providerCallId: "toolu_9", name: "Read", input: {} }], model },
      {
        role: "tool_results",
        results: [{ providerCallId: "toolu_9", name: "Read", text: "It never ran.", isError: true }],
      },
      userSays("Try again"),
    ]);
    expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(body.messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_9", content: "It never ran.", is_error: true },
      { type: "text", text: "Try again", cache_control: { type: "ephemeral" } },
    ]);
  });
});

describe("usage and failures", () => {
  test("cache reads and writes are reported apart, and the step has a cost", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: anthropicStream([{ type: "text", text: "ok" }], {
        usage: { input: 100, output: 50, cacheRead: 1000, cacheWrite: 200 },
      }),
    });
    const provider = providerFor(kit, server);
    const s = summarize(await collect(provider, providerRequest(kit)));
    expect(s.usage).toEqual({
      type: "usage",
      inputTokens: 100,
      outputTokens: 50,
      cacheReadTokens: 1000,
      cacheWriteTokens: 200,
    });
    // Sonnet 4.6: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million:
    // 100×3 + 1000×0.3 + 200×3.75 + 50×15 = 2100 millionths of a dollar.
    expect(provider.cost?.(kit.model, s.usage!)).toEqual({ amount: 0.0021, currency: "USD" });
    expect(provider.contextWindow(kit.model)).toBe(1_000_000);
  });

  test("an overloaded error event before any output is retryable", async () => {
    const server = fixtureServer();
    const head = anthropicStream([{ type: "text", text: "x" }]).slice(0, 2);
    server.enqueue({ sse: [...head, anthropicErrorEvent("overloaded_error", "Overloaded")] });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.final).toMatchObject({ type: "error", retryable: true });
    expect(s.final.type === "error" ? s.final.message : "").toContain("Overloaded");
  });

  test("an invalid request error event is final", async () => {
    const server = fixtureServer();
    server.enqueue({ sse: [anthropicErrorEvent("invalid_request_error", "bad thinking block")] });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.final).toMatchObject({ type: "error", retryable: false });
  });

  test("a refusal maps to the refusal stop reason", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: anthropicStream([{ type: "text", text: "I can't help with that." }], { stopReason: "refusal" }),
    });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.final).toMatchObject({ type: "done", stopReason: "refusal" });
  });
});
