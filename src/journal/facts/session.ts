import { z } from "zod";
import { configOption, sessionMode } from "./display-shapes.ts";

/** A tool definition as the model was given it when the session started. */
export const toolSpec = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
});
export type ToolSpec = z.infer<typeof toolSpec>;

export const modelRef = z.object({ provider: z.string(), model: z.string() });
export type ModelRef = z.infer<typeof modelRef>;

/** The first fact of every session: where it runs and what the model is given. */
export const sessionStarted = z.object({
  kind: z.literal("session_started"),
  cwd: z.string(),
  additionalDirectories: z.array(z.string()),
  agentVersion: z.string(),
  systemPrompt: z.string(),
  tools: z.array(toolSpec),
  modes: z.object({ currentModeId: z.string(), availableModes: z.array(sessionMode) }),
  configOptions: z.array(configOption),
  /** Which session spawned this one (subagents), if any. */
  parentSessionId: z.string().optional(),
  /** For a subagent's session: its type (e.g. "general-purpose"). */
  subagentType: z.string().optional(),
});

export const titleSet = z.object({
  kind: z.literal("title_set"),
  title: z.string(),
});

/**
 * A config option changed. `configOptions` is the whole set exactly as it was shown after the
 * change; `modeId` is set when the change was to the session mode.
 */
export const configChanged = z.object({
  kind: z.literal("config_changed"),
  configId: z.string(),
  value: z.string(),
  configOptions: z.array(configOption),
  modeId: z.string().optional(),
});

/**
 * This session was forked from another: the records before this one are a copy of that
 * session's records 1..`fromSeq`, exactly as they were (a subagent's child session is marked by
 * `parentSessionId` instead, and is a different thing). Shows nothing; the model never sees it.
 */
export const sessionForked = z.object({
  kind: z.literal("session_forked"),
  fromSessionId: z.string(),
  fromSeq: z.number().int().positive(),
});

export const sessionFacts = [sessionStarted, titleSet, configChanged, sessionForked] as const;
