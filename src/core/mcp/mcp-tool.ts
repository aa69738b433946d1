/**
 * An MCP server's tool as a verbatim tool: named `mcp__<server>__<tool>`, given to the model with
 * the server's own JSON schema, shown with the tool's title, gated like any tool (not read-only
 * unless the server says `readOnlyHint`), and run by calling the server.
 */
import type { ContentBlock as AcpBlock, ToolCallContent } from "@agentclientprotocol/sdk";
import type { CallToolResult, ContentBlock as McpBlock, Tool as McpToolDef } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { sha256Hex } from "../../shared/sha256.ts";
import { failed, type Tool, type ToolOutcome } from "../tools/tool.ts";
import { defined } from "../../shared/defined.ts";

/** Calls a tool on the server; rejects when the server cannot answer. */
export type ToolCaller = (name: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<CallToolResult>;

/** Providers accept tool names of at most 64 characters from `[A-Za-z0-9_-]`. */
const MAX_NAME = 64;

const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");

/** The name the model knows a server's tool by. */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${clean(server)}__${clean(tool)}`;
  if (name.length <= MAX_NAME) return name;
  const hash = sha256Hex(`${server}\0${tool}`).slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9)}_${hash}`;
}

/**
 * Input checked loosely: an object holding the properties the server's schema requires. The
 * server validates the rest itself and answers with an error the model can read.
 */
function looseInput(schema: McpToolDef["inputSchema"]) {
  const required = Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === "string")
    : [];
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    for (const key of required) {
      if (!(key in value)) ctx.addIssue({ code: "custom", path: [key], message: "required by the tool's schema" });
    }
  });
}

export function mcpTool(server: string, def: McpToolDef, call: ToolCaller): Tool<Record<string, unknown>> {
  const readOnly = def.annotations?.readOnlyHint === true;
  const shownTitle = def.title ?? def.annotations?.title ?? def.name;
  return {
    name: mcpToolName(server, def.name),
    description: def.description ?? `The ${def.name} tool of the ${server} MCP server.`,
    input: looseInput(def.inputSchema),
    inputJsonSchema: def.inputSchema as Record<string, unknown>,
    kind: readOnly ? "read" : "other",
    access: readOnly ? "read" : "execute",
    title: () => `${shownTitle} (${server})`,
    locations: () => [],
    async run(input, ctx): Promise<ToolOutcome> {
      let result: CallToolResult;
      try {
        result = await call(def.name, input, ctx.signal);
      } catch (error) {
        const message = `The ${server} MCP server could not run ${def.name}: ${error instanceof Error ? error.message : String(error)}`;
        return failed(message);
      }
      return outcomeOf(result);
    },
  };
}

/** What a call's result shows (the server's content blocks) and what the model is told (text). */
export function outcomeOf(result: CallToolResult): ToolOutcome {
  const blocks = (result.content ?? []).map(toAcpBlock);
  const content: ToolCallContent[] = blocks.map((block) => ({ type: "content", content: block }));
  const structured = result.structuredContent;
  let text = blocks.map(modelText).join("\n");
  if (!text && structured !== undefined) text = JSON.stringify(structured);
  if (content.length === 0 && structured !== undefined)
    content.push({ type: "content", content: { type: "text", text } });
  const isError = result.isError === true;
  return {
    status: isError ? "failed" : "completed",
    content,
    ...defined({ rawOutput: structured }),
    result: { text: text || (isError ? "The tool failed without saying why." : "(no output)"), isError },
  };
}

/** An MCP content block as the ACP block of the same meaning (their shapes match field by field). */
function toAcpBlock(block: McpBlock): AcpBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", data: block.data, mimeType: block.mimeType };
    case "audio":
      return { type: "audio", data: block.data, mimeType: block.mimeType };
    case "resource_link":
      return {
        type: "resource_link",
        uri: block.uri,
        name: block.name,
        ...defined({ title: block.title, description: block.description, mimeType: block.mimeType, size: block.size }),
      };
    case "resource": {
      const r = block.resource;
      const mime = defined({ mimeType: r.mimeType });
      return "text" in r
        ? { type: "resource", resource: { uri: r.uri, text: r.text, ...mime } }
        : { type: "resource", resource: { uri: r.uri, blob: r.blob, ...mime } };
    }
  }
}

function modelText(block: AcpBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image: ${block.mimeType}]`;
    case "audio":
      return `[audio: ${block.mimeType}]`;
    case "resource_link":
      return `[resource: ${block.name}](${block.uri})`;
    case "resource":
      return "text" in block.resource
        ? `<resource uri="${block.resource.uri}">\n${block.resource.text}\n</resource>`
        : `[binary resource: ${block.resource.uri}]`;
  }
}
