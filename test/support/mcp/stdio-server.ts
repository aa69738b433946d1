/** A stdio MCP server for tests: `bun test/support/mcp/stdio-server.ts`. */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { testMcpServer } from "./test-tools.ts";

process.stderr.write("verbatim test MCP server starting\n");
await testMcpServer({ secretEnv: "MCP_TEST_SECRET", canExit: true }).connect(new StdioServerTransport());
