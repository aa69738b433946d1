/**
 * MCP servers over HTTP for tests, on 127.0.0.1 only: Streamable HTTP (stateless, a fresh server
 * per request) and the older SSE transport. Each records the headers of the requests it got.
 */
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createServer, type IncomingMessage } from "node:http";
import { testMcpServer } from "./test-tools.ts";

export type RunningMcpServer = {
  url: string;
  headers: Record<string, string>[];
  /** The JSON-RPC methods of the requests it got (Streamable HTTP only). */
  methods: string[];
  close(): Promise<void>;
};

export function startHttpMcpServer(): RunningMcpServer {
  const headers: Record<string, string>[] = [];
  const methods: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      headers.push(Object.fromEntries(request.headers.entries()));
      if (request.method === "POST") {
        const body: unknown = await request
          .clone()
          .json()
          .catch(() => undefined);
        for (const message of Array.isArray(body) ? body : [body]) {
          const method = (message as { method?: unknown } | undefined)?.method;
          if (typeof method === "string") methods.push(method);
        }
      }
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      const mcp = testMcpServer();
      await mcp.connect(transport);
      return transport.handleRequest(request);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/mcp`,
    headers,
    methods,
    close: async () => void (await server.stop(true)),
  };
}

export async function startSseMcpServer(): Promise<RunningMcpServer> {
  const headers: Record<string, string>[] = [];
  const transports = new Map<string, SSEServerTransport>();
  const record = (req: IncomingMessage) =>
    headers.push(
      Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")])),
    );
  const server = createServer(async (req, res) => {
    record(req);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      transports.set(transport.sessionId, transport);
      transport.onclose = () => transports.delete(transport.sessionId);
      await testMcpServer().connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport) {
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    headers,
    methods: [],
    close: async () => {
      for (const t of transports.values()) await t.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
