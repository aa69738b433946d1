/**
 * The tools of the test MCP servers (stdio and HTTP share them): a read-only echo, an addition
 * that is not read-only, a picture, one that reports whether a secret reached the server without
 * showing it, and, for stdio, one that makes the server die.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

/** One pixel of PNG. */
export const PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

export function testMcpServer(options: { secretEnv?: string; canExit?: boolean } = {}): McpServer {
  const server = new McpServer({ name: "verbatim-test-server", version: "1.0.0" });
  server.registerTool(
    "echo",
    {
      title: "Echo",
      description: "Repeats the text it is given.",
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: "text", text: `echo: ${text}` }] }),
  );
  server.registerTool(
    "add",
    { title: "Add numbers", description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    "picture",
    { description: "Returns a tiny picture.", annotations: { readOnlyHint: true } },
    async () => ({
      content: [
        { type: "text", text: "A picture:" },
        { type: "image", data: PIXEL_PNG, mimeType: "image/png" },
      ],
    }),
  );
  if (options.secretEnv) {
    const name = options.secretEnv;
    server.registerTool(
      "secret_length",
      { description: `Tells how long the ${name} environment variable is.`, annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: "text", text: `${name} has ${(process.env[name] ?? "").length} characters` }] }),
    );
  }
  if (options.canExit) {
    server.registerTool(
      "crash",
      { description: "Makes the server exit at once.", annotations: { readOnlyHint: true } },
      async () => {
        setTimeout(() => process.exit(3), 10);
        return new Promise<never>(() => {});
      },
    );
  }
  return server;
}
