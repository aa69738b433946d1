/**
 * Run as its own process (a fresh module registry): drives an in-process agent, built from the
 * environment as a real process builds it, through `initialize`, then `session/new` (with the MCP
 * servers given as JSON in argv[2]), a prompt and a `session/load` in the session's workspace
 * (argv[3]). After each step it notes which of the heavy SDK packages are loaded, and prints
 * `{ step: packages[] }` as JSON.
 */
import * as acp from "@agentclientprotocol/sdk";
import { createAgentApp } from "../../src/acp/agent-app.ts";
import { choose, ViewClient } from "../../src/client/view-client.ts";

/** The packages that only a provider stream, an MCP server, or a Read of an image or a PDF needs. */
export const HEAVY_PACKAGES = [
  "@anthropic-ai/sdk",
  "openai",
  "@modelcontextprotocol/sdk",
  "@jimp/core",
  "@jsquash/webp",
  "unpdf",
] as const;

const loaded = (): string[] => {
  const paths = Object.keys(require.cache);
  return HEAVY_PACKAGES.filter((name) => paths.some((path) => path.includes(`/node_modules/${name}/`)));
};

if (import.meta.main) {
  const mcpServers = JSON.parse(process.argv[2] ?? "[]") as acp.McpServer[];
  const cwd = process.argv[3] ?? process.cwd();
  const agent = createAgentApp();
  const connection = new ViewClient(choose("allow_once")).app().connect(agent.inMemory());
  const steps: Record<string, string[]> = {};
  await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
  });
  steps.initialize = loaded();
  const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers });
  steps.new = loaded();
  await connection.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "Hello" }],
  });
  steps.prompt = loaded();
  await connection.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers });
  steps.load = loaded();
  await agent.closeAll();
  connection.close();
  agent.loadedDeps()?.store.close();
  process.stdout.write(`${JSON.stringify(steps)}\n`);
  process.exit(0);
}
