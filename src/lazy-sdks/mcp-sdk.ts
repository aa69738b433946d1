/**
 * The parts of the official MCP SDK a connection uses. Loaded by the first connection of a
 * session that has MCP servers: the SDK costs tens of milliseconds to load, and most sessions
 * have none. The build (`scripts/build.ts`) bundles this module apart.
 */
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
export { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { McpError } from "@modelcontextprotocol/sdk/types.js";
