/**
 * MCP tools, live versus reload, against real MCP servers the tests start (stdio, Streamable
 * HTTP, SSE): each tool is an ordinary card, gated like built-in tools, and a reopened session
 * shows it exactly as it was shown live.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { choose } from "../../src/client/view-client.ts";
import { prompt } from "../support/acp-session.ts";
import { permissionOf, textOf } from "../support/cards.ts";
import { httpServer, sseServer, stdioServer } from "../support/mcp/configs.ts";
import { startHttpMcpServer, startSseMcpServer } from "../support/mcp/http-server.ts";
import { PIXEL_PNG } from "../support/mcp/test-tools.ts";
import { cards, parity, texts } from "./harness.ts";

const http = startHttpMcpServer();
const sse = await startSseMcpServer();
afterAll(async () => {
  await http.close();
  await sse.close();
});

describe("MCP tools", () => {
  test("a stdio server's read-only tool runs without asking and reopens identically", async () => {
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId, client }) => {
        expect((await prompt(ctx, sessionId, 'mcp__tests__echo {"text":"hello"}')).stopReason).toBe("end_turn");
        expect(client.permissionRequests).toEqual([]);
      },
      { mcpServers: [stdioServer("tests")] },
    );
    const [card] = cards(r.live);
    expect(card).toMatchObject({ name: "mcp__tests__echo", title: "Echo (tests)", kind: "read", status: "completed" });
    expect(card?.rawInput).toEqual({ text: "hello" });
    expect(textOf(card?.content)).toBe("echo: hello");
    expect(texts(r.live, "agent").at(-1)).toBe("The tool answered: echo: hello");
    expect(r.differences).toEqual([]);
  });

  test("an HTTP server's tool that is not read-only asks first, like a built-in tool", async () => {
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId, client }) => {
        await prompt(ctx, sessionId, 'mcp__web__add {"a":2,"b":3}');
        expect(client.permissionRequests.length).toBe(1);
      },
      {
        mcpServers: [httpServer("web", http.url, [{ name: "Authorization", value: "Bearer test-token-123" }])],
        policy: choose("allow_once"),
      },
    );
    const [card] = cards(r.live);
    expect(card).toMatchObject({
      name: "mcp__web__add",
      title: "Add numbers (web)",
      kind: "other",
      status: "completed",
      rawOutput: { sum: 5 },
    });
    expect(permissionOf(card)?.outcome).toMatchObject({ optionId: "allow_once" });
    expect(texts(r.live, "agent").at(-1)).toBe("The tool answered: 5");
    expect(http.headers.some((h) => h.authorization === "Bearer test-token-123")).toBe(true);
    expect(r.differences).toEqual([]);
  });

  test("a refused MCP call never reaches the server", async () => {
    const callsBefore = http.methods.filter((m) => m === "tools/call").length;
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, 'mcp__web__add {"a":2,"b":3}');
      },
      { mcpServers: [httpServer("web", http.url)], policy: choose("reject_once") },
    );
    expect(http.methods).toContain("tools/list");
    expect(http.methods.filter((m) => m === "tools/call").length).toBe(callsBefore);
    const [card] = cards(r.live);
    expect(card?.status).toBe("failed");
    expect(textOf(card?.content)).toContain("Not run: refused by the user.");
    expect(texts(r.live, "agent").at(-1)).toContain("The tool failed");
    expect(r.differences).toEqual([]);
  });

  test("an SSE server's tool works the same way", async () => {
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, 'mcp__old__echo {"text":"over sse"}');
      },
      { mcpServers: [sseServer("old", sse.url)] },
    );
    expect(cards(r.live)[0]).toMatchObject({ name: "mcp__old__echo", status: "completed" });
    expect(texts(r.live, "agent").at(-1)).toBe("The tool answered: echo: over sse");
    expect(r.differences).toEqual([]);
  });

  test("a tool's picture is shown in its card and reopened with it", async () => {
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "mcp__tests__picture {}");
      },
      { mcpServers: [stdioServer("tests")] },
    );
    const [card] = cards(r.live);
    expect(card?.content).toEqual([
      { type: "content", content: { type: "text", text: "A picture:" } },
      { type: "content", content: { type: "image", data: PIXEL_PNG, mimeType: "image/png" } },
    ]);
    expect(texts(r.live, "agent").at(-1)).toBe("The tool answered: A picture:\n[image: image/png]");
    expect(r.differences).toEqual([]);
  });
});
