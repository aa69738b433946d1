import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { toolSpec } from "./session.ts";

/**
 * The MCP tools the model is offered from now on, and the servers they come from (names and
 * transports only: a server's command, URL, environment and headers are never journaled). Recorded
 * before a turn whenever the set differs from the one last recorded, so a reopened session sends
 * the provider the same tool definitions.
 */
export const mcpToolsListed = lazySchema(() =>
  z.object({
    kind: z.literal("mcp_tools_listed"),
    servers: z.array(
      z.object({
        name: z.string(),
        transport: z.enum(["stdio", "http", "sse"]),
        status: z.enum(["connected", "failed", "stopped"]),
        tools: z.array(z.string()),
      }),
    ),
    tools: z.array(toolSpec),
  }),
);

export const mcpFacts = [mcpToolsListed] as const;
