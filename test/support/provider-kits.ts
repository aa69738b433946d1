/**
 * One kit per wire protocol: how to point verbatim at a fixture server, and the recorded streams
 * for the behaviours every adapter must show (text, thinking, tool calls, limits, failures).
 * Adapter tests, parity tests and request-parity tests all run over these kits.
 */
import type { ProviderKind } from "../../src/core/config/settings-schema.ts";
import type { FixtureResponse, FixtureServer } from "./fixture-server.ts";
import { anthropicErrorBody, anthropicStream } from "./sse/anthropic.ts";
import { chatStream } from "./sse/openai-chat.ts";
import { openaiErrorBody, responsesStream } from "./sse/openai-responses.ts";

export type FixtureCall = { id: string; name: string; input: unknown };

export type Kit = {
  kind: ProviderKind;
  model: string;
  /** The path the SDK posts to. */
  path: string;
  /** The environment that points verbatim at the fixture server (and the key it sends, if any). */
  env(server: FixtureServer): Record<string, string>;
  apiKey?: string;
  text(text: string): string[];
  thinkingThenText(thinking: string, text: string): string[];
  calls(calls: FixtureCall[], text?: string): string[];
  /** Tool calls in a step whose provider reports `inputTokens` input tokens (a request that fills the window). */
  callsReporting(calls: FixtureCall[], inputTokens: number): string[];
  /** Thinking, a short answer, then tool calls: everything a step can hold. */
  thinkingThenCalls(thinking: string, text: string, calls: FixtureCall[]): string[];
  maxTokens(text: string): string[];
  /** 429 with a `retry-after` of zero seconds. */
  rateLimited(): FixtureResponse;
  /** A request the provider refuses (400). */
  badRequest(message: string): FixtureResponse;
};

const ANTHROPIC_KEY = "sk-ant-fixture-secret-0123456789";
const OPENAI_KEY = "sk-fixture-secret-0123456789";

export const anthropicKit: Kit = {
  kind: "anthropic",
  model: "claude-sonnet-4-6",
  path: "/v1/messages",
  apiKey: ANTHROPIC_KEY,
  env: (server) => ({ ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.origin }),
  text: (text) => anthropicStream([{ type: "text", text }]),
  thinkingThenText: (thinking, text) =>
    anthropicStream([
      { type: "thinking", thinking, signature: `sig-${thinking.length}-EqQBCkYIARgCIkD` },
      { type: "text", text },
    ]),
  calls: (calls, text) =>
    anthropicStream([
      ...(text ? [{ type: "text" as const, text }] : []),
      ...calls.map((c) => ({ type: "tool_use" as const, ...c })),
    ]),
  callsReporting: (calls, inputTokens) =>
    anthropicStream(
      calls.map((c) => ({ type: "tool_use" as const, ...c })),
      { usage: { input: inputTokens, output: 40 } },
    ),
  thinkingThenCalls: (thinking, text, calls) =>
    anthropicStream([
      { type: "thinking", thinking, signature: `sig-${thinking.length}-EqQBCkYIARgCIkD` },
      { type: "text", text },
      ...calls.map((c) => ({ type: "tool_use" as const, ...c })),
    ]),
  maxTokens: (text) => anthropicStream([{ type: "text", text }], { stopReason: "max_tokens" }),
  rateLimited: () => ({
    status: 429,
    json: anthropicErrorBody("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"),
    headers: { "retry-after": "0" },
  }),
  badRequest: (message) => ({ status: 400, json: anthropicErrorBody("invalid_request_error", message) }),
};

export const responsesKit: Kit = {
  kind: "openai",
  model: "gpt-5.4",
  path: "/v1/responses",
  apiKey: OPENAI_KEY,
  env: (server) => ({ OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${server.origin}/v1` }),
  text: (text) => responsesStream([{ type: "message", id: "msg_fx_1", text }]),
  thinkingThenText: (thinking, text) =>
    responsesStream([
      { type: "reasoning", id: "rs_fx_1", summary: [thinking], encrypted: `gAAAAB-encrypted-${thinking.length}` },
      { type: "message", id: "msg_fx_1", text },
    ]),
  calls: (calls, text) =>
    responsesStream([
      ...(text ? [{ type: "message" as const, id: "msg_fx_1", text }] : []),
      ...calls.map((c, i) => ({
        type: "function_call" as const,
        id: `fc_fx_${i}`,
        callId: c.id,
        name: c.name,
        input: c.input,
      })),
    ]),
  callsReporting: (calls, inputTokens) =>
    responsesStream(
      calls.map((c, i) => ({
        type: "function_call" as const,
        id: `fc_fx_${i}`,
        callId: c.id,
        name: c.name,
        input: c.input,
      })),
      { usage: { input: inputTokens, output: 40 } },
    ),
  thinkingThenCalls: (thinking, text, calls) =>
    responsesStream([
      { type: "reasoning", id: "rs_fx_1", summary: [thinking], encrypted: `gAAAAB-encrypted-${thinking.length}` },
      { type: "message", id: "msg_fx_1", text },
      ...calls.map((c, i) => ({
        type: "function_call" as const,
        id: `fc_fx_${i}`,
        callId: c.id,
        name: c.name,
        input: c.input,
      })),
    ]),
  maxTokens: (text) =>
    responsesStream([{ type: "message", id: "msg_fx_1", text }], {
      status: "incomplete",
      incompleteReason: "max_output_tokens",
    }),
  rateLimited: () => ({
    status: 429,
    json: openaiErrorBody("requests", "Rate limit reached for requests", "rate_limit_exceeded"),
    headers: { "retry-after": "0" },
  }),
  badRequest: (message) => ({ status: 400, json: openaiErrorBody("invalid_request_error", message) }),
};

export const chatKit: Kit = {
  kind: "openai-chat",
  model: "qwen3:8b",
  path: "/v1/chat/completions",
  // A local server: no key at all (the adapter sends a placeholder the SDK insists on).
  env: (server) => ({ OPENAI_BASE_URL: `${server.origin}/v1` }),
  text: (text) => chatStream({ content: text }),
  thinkingThenText: (thinking, text) =>
    chatStream({ reasoning: { field: "reasoning_content", text: thinking }, content: text }),
  calls: (calls, text) => chatStream({ ...(text ? { content: text } : {}), calls }),
  callsReporting: (calls, inputTokens) => chatStream({ calls, usage: { prompt: inputTokens, completion: 40 } }),
  thinkingThenCalls: (thinking, text, calls) =>
    chatStream({ reasoning: { field: "reasoning_content", text: thinking }, content: text, calls }),
  maxTokens: (text) => chatStream({ content: text, finish: "length" }),
  rateLimited: () => ({
    status: 429,
    json: openaiErrorBody("rate_limit_error", "Too many requests"),
    headers: { "retry-after": "0" },
  }),
  badRequest: (message) => ({ status: 400, json: openaiErrorBody("invalid_request_error", message) }),
};

export const kits: Kit[] = [anthropicKit, responsesKit, chatKit];

export const modelRef = (kit: Kit) => `${kit.kind}/${kit.model}`;
