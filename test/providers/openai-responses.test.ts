/**
 * OpenAI Responses specifics: stateless requests (`store: false`) that ask for encrypted
 * reasoning, reasoning summaries shown as thinking, encrypted reasoning and item ids kept
 * private and given back in place, cached-token usage.
 */
import { describe, expect, test } from "bun:test";
import { modelInfo } from "../../src/core/providers/known-models.ts";
import { buildRequest } from "../../src/core/providers/openai-responses/request.ts";
import type { ModelMessage } from "../../src/replay/model-messages.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { collect, providerFor, providerRequest, summarize, userSays } from "../support/provider-events.ts";
import { responsesKit as kit } from "../support/provider-kits.ts";
import { responsesStream } from "../support/sse/openai-responses.ts";

const model = { provider: "openai", model: "gpt-5.4" };

const lower = (
  messages: ModelMessage[],
  options: { model?: string; thoughtLevel?: "off" | "low" | "medium" | "high" } = {},
) =>
  buildRequest(
    providerRequest(kit, {
      messages,
      model: options.model ?? kit.model,
      thoughtLevel: options.thoughtLevel ?? "medium",
    }),
    "openai",
    modelInfo("openai", options.model ?? kit.model, undefined),
  );

describe("the request", () => {
  test("is stateless and asks for encrypted reasoning and summaries", () => {
    const body = lower([userSays("Hi")]);
    expect(body).toMatchObject({
      model: "gpt-5.4",
      stream: true,
      store: false,
      instructions: "You are a test.",
      include: ["reasoning.encrypted_content"],
      reasoning: { effort: "medium", summary: "auto" },
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] }],
    });
    expect(body.tools).toEqual([expect.objectContaining({ type: "function", name: "Read", strict: false })]);
  });

  test("thinking off asks for no effort and no summary", () => {
    expect(lower([userSays("Hi")], { thoughtLevel: "off" }).reasoning).toEqual({ effort: "none" });
  });

  test('a model configured with thinking "none" gets no reasoning options at all', () => {
    const body = buildRequest(
      providerRequest(kit, { model: "gpt-4.1" }),
      "openai",
      modelInfo("openai", "gpt-4.1", { thinking: "none" }),
    );
    expect(body.reasoning).toBeUndefined();
    expect(body.include).toBeUndefined();
    expect(body.store).toBe(false);
  });

  test("a recorded step goes back in order: encrypted reasoning, the answer, the calls; results pair by call id", () => {
    const body = lower([
      userSays("Read it"),
      {
        role: "assistant",
        text: "Reading.",
        calls: [{ providerCallId: "call_1", name: "Read", input: { file_path: "/w/README.md" } }],
        continuity: {
          format: "openai-responses/1",
          items: [
            { type: "reasoning", id: "rs_1", summary: ["Plan: read the file."], encrypted: "gAAAA-secret-blob" },
            { type: "text", chars: 8, id: "msg_1" },
            { type: "call", id: "call_1", itemId: "fc_1" },
          ],
        },
        model,
      },
      { role: "tool_results", results: [{ providerCallId: "call_1", name: "Read", text: "# Sample", isError: false }] },
    ]);
    expect(body.input as unknown).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "Read it" }] },
      {
        type: "reasoning",
        summary: [{ type: "summary_text", text: "Plan: read the file." }],
        encrypted_content: "gAAAA-secret-blob",
      },
      { type: "message", role: "assistant", content: "Reading." },
      { type: "function_call", call_id: "call_1", name: "Read", arguments: '{"file_path":"/w/README.md"}' },
      { type: "function_call_output", call_id: "call_1", output: "# Sample" },
    ]);
  });
});

test("reasoning that led to no output (a reply cut off while reasoning) is not given back", () => {
  const body = lower([
    userSays("Go"),
    {
      role: "assistant",
      text: "",
      calls: [],
      continuity: {
        format: "openai-responses/1",
        items: [{ type: "reasoning", id: "rs_1", summary: [], encrypted: "gAAAA-x" }],
      },
      model,
    },
    userSays("Again"),
  ]);
  expect(body.input as unknown).toEqual([
    { type: "message", role: "user", content: [{ type: "input_text", text: "Go" }] },
    { type: "message", role: "user", content: [{ type: "input_text", text: "Again" }] },
  ]);
});

describe("the stream", () => {
  test("reasoning summaries are shown as thinking, paragraphs apart; the encrypted content and ids are kept privately", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: responsesStream([
        { type: "reasoning", id: "rs_9", summary: ["First I look.", "Then I answer."], encrypted: "gAAAA-enc-9" },
        { type: "message", id: "msg_9", text: "Answer." },
      ]),
    });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.thinking).toBe("First I look.\n\nThen I answer.");
    expect(s.thinking + s.text).not.toContain("gAAAA");
    expect(s.final).toMatchObject({
      type: "done",
      continuity: {
        format: "openai-responses/1",
        items: [
          { type: "reasoning", id: "rs_9", summary: ["First I look.", "Then I answer."], encrypted: "gAAAA-enc-9" },
          { type: "text", chars: 7, id: "msg_9" },
        ],
      },
    });
  });

  test("cached input tokens are reported apart from the rest", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: responsesStream([{ type: "message", id: "m", text: "ok" }], {
        usage: { input: 1000, cached: 800, output: 20 },
      }),
    });
    const provider = providerFor(kit, server);
    const s = summarize(await collect(provider, providerRequest(kit)));
    expect(s.usage).toEqual({ type: "usage", inputTokens: 200, cacheReadTokens: 800, outputTokens: 20 });
    // GPT-5.4: $2.50 in, $0.25 cached, $15 out per million: 200×2.5 + 800×0.25 + 20×15 = 1000 millionths.
    expect(provider.cost?.(kit.model, s.usage!)).toEqual({ amount: 0.001, currency: "USD" });
  });

  test("a failed response is an error event; a server error is retryable", async () => {
    const server = fixtureServer();
    const failed = `event: response.failed\ndata: ${JSON.stringify({
      type: "response.failed",
      sequence_number: 1,
      response: {
        id: "resp_x",
        object: "response",
        status: "failed",
        output: [],
        usage: null,
        error: { code: "server_error", message: "The server had an error" },
      },
    })}\n\n`;
    server.enqueue({ sse: [failed] });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.final).toMatchObject({ type: "error", retryable: true });
    expect(s.final.type === "error" ? s.final.message : "").toContain("The server had an error");
  });

  test("a content filter ends as a refusal", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: responsesStream([{ type: "message", id: "m", text: "I can't" }], {
        status: "incomplete",
        incompleteReason: "content_filter",
      }),
    });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.final).toMatchObject({ type: "done", stopReason: "refusal" });
  });
});
