/** ACP `mcpServers` entries for the test servers. */
import type { McpServer } from "@agentclientprotocol/sdk";
import { join } from "node:path";

const STDIO_SERVER = join(import.meta.dir, "stdio-server.ts");

/** The stdio test server, run by the same Bun as the tests. */
export const stdioServer = (name = "tests", env: { name: string; value: string }[] = []): McpServer => ({
  name,
  command: process.execPath,
  args: [STDIO_SERVER],
  env,
});

export const httpServer = (name: string, url: string, headers: { name: string; value: string }[] = []): McpServer => ({
  type: "http",
  name,
  url,
  headers,
});

export const sseServer = (name: string, url: string, headers: { name: string; value: string }[] = []): McpServer => ({
  type: "sse",
  name,
  url,
  headers,
});
