/**
 * OpenAI-compatible Chat Completions specifics: streamed usage requested, a placeholder key for
 * local servers, thinking from `reasoning` / `reasoning_content` deltas and `<think>` tags,
 * reasoning given back within a tool-use loop, tool calls from servers that omit ids.
 */
import { describe, expect, test } from "bun:test";
import { modelInfo } from "../../src/core/providers/known-models.ts";
import { buildRequest } from "../../src/core/providers/openai-chat/request.ts";
import type { ModelMessage } from "../../src/replay/model-messages.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { collect, providerFor, providerRequest, summarize, userSays } from "../support/provider-events.ts";
import { chatKit as kit } from "../support/provider-kits.ts";
import { chatStream } from "../support/sse/openai-chat.ts";

const model = { provider: "openai-chat", model: "qwen3:8b" };

const lower = (messages: ModelMessage[]) =>
  buildRequest(providerRequest(kit, { messages }), "openai-chat", modelInfo("openai-chat", kit.model, undefined));

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

describe("the request", () => {
  test("asks for streamed usage and sends a placeholder key to a server that needs none", async () => {
    const server = fixtureServer();
    server.enqueue({ sse: chatStream({ content: "ok" }) });
    await collect(providerFor(kit, server), providerRequest(kit));
    const [request] = server.requests;
    expect(request?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: "You are a test." },
        { role: "user", content: "Hello" },
      ],
    });
    expect(request?.headers.authorization).toBe("Bearer verbatim-no-key");
    expect(request?.body).not.toHaveProperty("reasoning_effort");
  });

  test("a model configured with an output limit and reasoning effort gets both; thinking off asks for none", () => {
    const info = modelInfo("openai-chat", kit.model, { maxOutputTokens: 4096, thinking: "effort" });
    expect(buildRequest(providerRequest(kit, { thoughtLevel: "high" }), "openai-chat", info)).toMatchObject({
      max_tokens: 4096,
      reasoning_effort: "high",
    });
    expect(buildRequest(providerRequest(kit, { thoughtLevel: "off" }), "openai-chat", info)).toMatchObject({
      reasoning_effort: "none",
    });
    expect(lower([userSays("Hi")])).not.toHaveProperty("max_tokens");
  });

  test("reasoning is given back, in the field it came in, only within the current turn", () => {
    const step = (text: string, reasoning: string): ModelMessage => ({
      role: "assistant",
      text,
      calls: [{ providerCallId: `call_${text}`, name: "Read", input: { file_path: "/w/a" } }],
      continuity: { format: "openai-chat/1", reasoning: { field: "reasoning", text: reasoning } },
      model,
    });
    const results = (id: string): ModelMessage => ({
      role: "tool_results",
      results: [{ providerCallId: id, name: "Read", text: "content", isError: false }],
    });
    const body = lower([
      userSays("one"),
      step("a", "earlier turn"),
      results("call_a"),
      userSays("two"),
      step("b", "this turn"),
      results("call_b"),
    ]);
    const assistants = body.messages.filter((m) => m.role === "assistant");
    expect(assistants[0]).not.toHaveProperty("reasoning");
    expect(assistants[1]).toMatchObject({
      role: "assistant",
      content: "b",
      reasoning: "this turn",
      tool_calls: [{ id: "call_b", type: "function", function: { name: "Read", arguments: '{"file_path":"/w/a"}' } }],
    });
    expect(body.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_b", content: "content" });
  });
});

describe("thinking", () => {
  test("from the `reasoning` field (Ollama, OpenRouter)", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: chatStream({ reasoning: { field: "reasoning", text: "Hmm, a greeting." }, content: "Hello!" }),
    });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.thinking).toBe("Hmm, a greeting.");
    expect(s.text).toBe("Hello!");
    expect(s.final).toMatchObject({
      continuity: { format: "openai-chat/1", reasoning: { field: "reasoning", text: "Hmm, a greeting." } },
    });
  });

  test("from <think> tags at the start of the content, split across chunks", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: [
        chunk({ role: "assistant", content: "<thi" }),
        chunk({ content: "nk>\nI should be brief.</th" }),
        chunk({ content: "ink>\n\nBrief answer." }),
        chunk({}, "stop"),
      ],
    });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.thinking).toBe("I should be brief.");
    expect(s.text).toBe("Brief answer.");
  });
});

describe("tool calls", () => {
  test("a server that sends no call ids gets ids from the calls' places; `stop` with calls still means tool_use", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: [
        chunk({
          role: "assistant",
          tool_calls: [{ index: 0, type: "function", function: { name: "Read", arguments: '{"file_path":' } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"/w/a"}' } }] }),
        chunk({
          tool_calls: [{ index: 1, type: "function", function: { name: "Read", arguments: '{"file_path":"/w/b"}' } }],
        }),
        chunk({}, "stop"),
      ],
    });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.calls.map((c) => [c.id, c.input])).toEqual([
      ["call_0", { file_path: "/w/a" }],
      ["call_1", { file_path: "/w/b" }],
    ]);
    expect(s.final).toMatchObject({ type: "done", stopReason: "tool_use" });
  });

  test("a server that puts every call at index 0 still gives each call apart", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: [
        chunk({
          role: "assistant",
          tool_calls: [
            { index: 0, id: "call_x", type: "function", function: { name: "Read", arguments: '{"file_path":"/w/a"}' } },
          ],
        }),
        chunk({
          tool_calls: [
            { index: 0, id: "call_y", type: "function", function: { name: "Read", arguments: '{"file_path":' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"/w/b"}' } }] }),
        chunk({}, "tool_calls"),
      ],
    });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.calls.map((c) => [c.id, c.input, c.ended])).toEqual([
      ["call_x", { file_path: "/w/a" }, true],
      ["call_y", { file_path: "/w/b" }, true],
    ]);
  });

  test("an error sent inside the stream is a final error event", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: [
        chunk({ role: "assistant", content: "" }),
        `data: ${JSON.stringify({ error: { message: "model not loaded", type: "invalid_request_error" } })}\n\n`,
      ],
    });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.final).toMatchObject({ type: "error", retryable: false });
    expect(s.final.type === "error" ? s.final.message : "").toContain("model not loaded");
  });
});
