/**
 * What every adapter must do, shown for each wire protocol through its real SDK client against
 * recorded streams served on loopback: stream text and thinking, stream tool calls with their
 * arguments, map limits to stop reasons, and turn every failure into one final error event
 * (transient ones marked retryable) without ever throwing.
 */
import { describe, expect, test } from "bun:test";
import { fixtureServer } from "../support/fixture-server.ts";
import { collect, providerFor, providerRequest, summarize } from "../support/provider-events.ts";
import { kits } from "../support/provider-kits.ts";
import { cut } from "../support/sse/anthropic.ts";

const README = { file_path: "/work/README.md" };
const NOTES = { file_path: "/work/NOTES.md" };

describe.each(kits)("the $kind adapter", (kit) => {
  test("streams plain text and ends end_turn with usage", async () => {
    const server = fixtureServer();
    server.enqueue({ sse: kit.text("Hello there, this is a plain answer.") });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.text).toBe("Hello there, this is a plain answer.");
    expect(s.thinking).toBe("");
    expect(s.final).toMatchObject({ type: "done", stopReason: "end_turn" });
    expect(s.finals).toBe(1);
    expect(s.usage?.outputTokens).toBeGreaterThan(0);
    expect(server.requests.map((r) => r.path)).toEqual([kit.path]);
  });

  test("sends the key it was given, and streams", async () => {
    const server = fixtureServer();
    server.enqueue({ sse: kit.text("ok") });
    await collect(providerFor(kit, server), providerRequest(kit));
    const [request] = server.requests;
    const sent = JSON.stringify(request?.headers);
    if (kit.apiKey) expect(sent).toContain(kit.apiKey);
    expect(request?.body).toMatchObject({ model: kit.model, stream: true });
  });

  test("shows thinking, then the answer", async () => {
    const server = fixtureServer();
    server.enqueue({ sse: kit.thinkingThenText("The user greets me. A short reply will do.", "Hi! How can I help?") });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.thinking).toBe("The user greets me. A short reply will do.");
    expect(s.text).toBe("Hi! How can I help?");
    expect(s.final).toMatchObject({ type: "done", stopReason: "end_turn" });
  });

  test("streams a tool call's arguments and ends tool_use", async () => {
    const server = fixtureServer();
    server.enqueue({ sse: kit.calls([{ id: "call_read_1", name: "Read", input: README }], "Reading it. ") });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.text).toBe("Reading it. ");
    expect(s.calls).toEqual([expect.objectContaining({ id: "call_read_1", name: "Read", input: README, ended: true })]);
    expect(s.final).toMatchObject({ type: "done", stopReason: "tool_use" });
  });

  test("streams two parallel tool calls, each with its own id and arguments", async () => {
    const server = fixtureServer();
    server.enqueue({
      sse: kit.calls([
        { id: "call_a", name: "Read", input: README },
        { id: "call_b", name: "Read", input: NOTES },
      ]),
    });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.calls.map((c) => [c.id, c.input])).toEqual([
      ["call_a", README],
      ["call_b", NOTES],
    ]);
    expect(new Set(s.calls.map((c) => c.index)).size).toBe(2);
    expect(s.final).toMatchObject({ type: "done", stopReason: "tool_use" });
  });

  test("maps the output limit to max_tokens", async () => {
    const server = fixtureServer();
    server.enqueue({ sse: kit.maxTokens("This answer is cut off at the") });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.text).toBe("This answer is cut off at the");
    expect(s.final).toMatchObject({ type: "done", stopReason: "max_tokens" });
  });

  test("a connection that drops part of the way through ends with one error after the text it streamed", async () => {
    const server = fixtureServer();
    const full = kit.text("Starting the answer, and then the rest of it never arrives.");
    const shown = Promise.withResolvers<void>();
    server.enqueue({ sse: cut(full, Math.ceil(full.length / 2)), drop: shown.promise });
    const events = [];
    for await (const event of providerFor(kit, server).stream(providerRequest(kit), new AbortController().signal)) {
      events.push(event);
      if (event.type === "text_delta") shown.resolve();
    }
    const s = summarize(events);
    expect(s.text.length).toBeGreaterThan(0);
    expect("Starting the answer, and then the rest of it never arrives.").toStartWith(s.text);
    expect(s.final).toMatchObject({ type: "error", retryable: true });
    expect(s.finals).toBe(1);
  });

  test("a stream that simply stops early is an error too, never a silent success", async () => {
    const server = fixtureServer();
    const full = kit.text("An answer that stops.");
    server.enqueue({ sse: cut(full, 3) });
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.final).toMatchObject({ type: "error", retryable: true });
  });

  test("429 is retryable with the provider's retry-after; the next request succeeds", async () => {
    const server = fixtureServer();
    server.enqueue(kit.rateLimited(), { sse: kit.text("Back again.") });
    const provider = providerFor(kit, server);
    const first = summarize(await collect(provider, providerRequest(kit)));
    expect(first.final).toMatchObject({ type: "error", retryable: true, retryAfterMs: 0 });
    expect(first.text).toBe("");
    const second = summarize(await collect(provider, providerRequest(kit)));
    expect(second.text).toBe("Back again.");
    expect(server.requests.length).toBe(2);
  });

  test("a refused request (400) is a final, non-retryable error with the provider's message", async () => {
    const server = fixtureServer();
    server.enqueue(kit.badRequest("messages: field required"));
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.final).toMatchObject({ type: "error", retryable: false });
    expect(s.final.type === "error" ? s.final.message : "").toContain("messages: field required");
    // The SDK's own retries are off: one request, not three.
    expect(server.requests.length).toBe(1);
  });

  test("an unreachable server is a retryable connection error", async () => {
    const server = fixtureServer();
    server.stop();
    const s = summarize(await collect(providerFor(kit, server), providerRequest(kit)));
    expect(s.final).toMatchObject({ type: "error", retryable: true });
  });

  test("a cancel ends the stream with one cancelled error", async () => {
    const server = fixtureServer();
    server.enqueue({ sse: kit.text("One two three four five six seven eight nine ten.") });
    const abort = new AbortController();
    const events = [];
    for await (const event of providerFor(kit, server).stream(providerRequest(kit), abort.signal)) {
      events.push(event);
      if (event.type === "text_delta") abort.abort();
    }
    const s = summarize(events);
    expect(s.final).toMatchObject({ type: "error", message: "cancelled", retryable: false });
    expect(s.finals).toBe(1);
  });
});
