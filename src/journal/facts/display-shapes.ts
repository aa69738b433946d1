/**
 * Schemas for values recorded exactly as they were shown to a client. Their types come from
 * the ACP SDK (the single source of those shapes); the checks here are structural, enough to
 * reject a damaged record without re-validating the protocol.
 */
import type {
  ContentBlock,
  PermissionOption,
  PlanEntry,
  SessionConfigOption,
  SessionMode,
  ToolCallContent,
  ToolCallLocation,
  ToolKind,
} from "@agentclientprotocol/sdk";
import { z } from "zod";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const tagged = <T>(what: string, tags?: readonly string[]) =>
  z.custom<T>((v) => isRecord(v) && typeof v.type === "string" && (!tags || tags.includes(v.type)), {
    message: `expected ${what}`,
  });

export const contentBlock = tagged<ContentBlock>("a content block");
export const toolCallContent = tagged<ToolCallContent>("tool call content", ["content", "diff", "terminal"]);

/** A line of text in a tool card's content. */
export const textContent = (text: string): ToolCallContent => ({ type: "content", content: { type: "text", text } });

export const toolKind = z.enum([
  "read",
  "edit",
  "delete",
  "move",
  "search",
  "execute",
  "think",
  "fetch",
  "switch_mode",
  "other",
]) satisfies z.ZodType<ToolKind>;

export const toolCallLocation = z.object({
  path: z.string(),
  line: z.number().int().nullish(),
}) satisfies z.ZodType<ToolCallLocation>;

export const permissionOption = z.object({
  optionId: z.string(),
  name: z.string(),
  kind: z.enum(["allow_once", "allow_always", "reject_once", "reject_always"]),
}) satisfies z.ZodType<PermissionOption>;

export const planEntry = z.object({
  content: z.string(),
  priority: z.enum(["high", "medium", "low"]),
  status: z.enum(["pending", "in_progress", "completed"]),
}) satisfies z.ZodType<PlanEntry>;

export const configOption = z.custom<SessionConfigOption>(
  (v) => isRecord(v) && typeof v.id === "string" && typeof v.type === "string",
  { message: "expected a session config option" },
);

export const sessionMode = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
}) satisfies z.ZodType<SessionMode>;

/** Any JSON value; used for tool input and output as they were given. */
export const json = z.unknown();

/** An amount of money, as shown in a `usage_update` (a model's price gives it). */
export const money = z.object({ amount: z.number(), currency: z.string() });

export type Money = z.infer<typeof money>;

/** A model call's tokens, as its provider reported them (`inputTokens` are the uncached ones). */
export const tokenCounts = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number().optional(),
  cacheWriteTokens: z.number().optional(),
});

export type TokenCounts = z.infer<typeof tokenCounts>;
