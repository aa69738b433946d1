/** MCP tools as verbatim tools: names, input checks, results, and masking a server's secrets. */
import { describe, expect, test } from "bun:test";
import { mcpTool, mcpToolName, outcomeOf } from "../../src/core/mcp/mcp-tool.ts";
import { redact, type McpServerConfig } from "../../src/core/mcp/server-config.ts";
import { parseInput } from "../../src/core/tools/registry.ts";
import type { Tool } from "../../src/core/tools/tool.ts";

const def = {
  name: "search issues",
  title: "Search issues",
  description: "Finds issues.",
  inputSchema: {
    type: "object" as const,
    properties: { query: { type: "string" }, limit: { type: "number" } },
    required: ["query"],
  },
};
const never = async () => {
  throw new Error("not called");
};

describe("MCP tool names", () => {
  test("are mcp__<server>__<tool> with anything but letters, digits, _ and - replaced", () => {
    expect(mcpToolName("git hub", "search issues")).toBe("mcp__git_hub__search_issues");
  });

  test("longer than providers accept are cut to 64 characters and told apart by a hash", () => {
    const a = mcpToolName("server", "x".repeat(80));
    const b = mcpToolName("server", `${"x".repeat(79)}y`);
    expect(a.length).toBe(64);
    expect(b.length).toBe(64);
    expect(a).not.toBe(b);
  });
});

describe("MCP tools", () => {
  test("give the model the server's own schema and check input loosely: required properties only", () => {
    const tool = mcpTool("gh", def, never) as Tool;
    expect(tool.inputJsonSchema).toEqual(def.inputSchema);
    expect(parseInput(tool, { query: "bug", extra: true })).toEqual({ ok: true, input: { query: "bug", extra: true } });
    const missing = parseInput(tool, { limit: 3 });
    expect(missing.ok).toBe(false);
    expect(missing.ok ? "" : missing.message).toContain("query: required by the tool's schema");
  });

  test("are not read-only unless the server says readOnlyHint", () => {
    expect(mcpTool("gh", def, never)).toMatchObject({ kind: "other", access: "execute" });
    expect(mcpTool("gh", { ...def, annotations: { readOnlyHint: true } }, never)).toMatchObject({
      kind: "read",
      access: "read",
    });
  });

  test("a server's error result fails the call with the server's words for the model", () => {
    expect(outcomeOf({ content: [{ type: "text", text: "rate limited" }], isError: true })).toMatchObject({
      status: "failed",
      result: { text: "rate limited", isError: true },
    });
  });

  test("structured content alone is shown and told as JSON", () => {
    expect(outcomeOf({ content: [], structuredContent: { count: 2 } })).toMatchObject({
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: '{"count":2}' } }],
      rawOutput: { count: 2 },
      result: { text: '{"count":2}', isError: false },
    });
  });
});

describe("masking a server's secrets", () => {
  test("environment values are masked in anything shown about a stdio server", () => {
    const config: McpServerConfig = {
      transport: "stdio",
      name: "s",
      command: "x",
      args: [],
      env: [{ name: "TOKEN", value: "abcd-secret" }],
    };
    expect(redact("failed with abcd-secret in its output", config)).toBe("failed with *** in its output");
  });

  test("header values and the URL's password and query values are masked for HTTP servers", () => {
    const config: McpServerConfig = {
      transport: "http",
      name: "s",
      url: "https://user:p4ssw0rd@example.test/mcp?token=tok-123456&x=1",
      headers: [{ name: "Authorization", value: "Bearer xyz-98765" }],
    };
    expect(redact("GET https://user:p4ssw0rd@example.test/mcp?token=tok-123456 with Bearer xyz-98765", config)).toBe(
      "GET https://user:***@example.test/mcp?token=*** with ***",
    );
  });
});
