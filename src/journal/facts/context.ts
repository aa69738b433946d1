import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";

/**
 * One file the model's system prompt was built from (or, for a nested file, its context was given
 * later), as it was when read: where it came from, its size in bytes and the SHA-256 of its text.
 */
export const contextSource = z.object({
  path: z.string(),
  /** Which convention read it: Claude Code's tiers, the AGENTS.md chain, or an `@path` import. */
  /** `skill`: a skill with `paths` globs, offered to the model once it read a file they match. */
  scope: z.enum(["managed", "user", "project", "local", "rules", "agents", "import", "nested", "skill"]),
  bytes: z.number().int().nonnegative(),
  sha256: z.string(),
});
export type ContextSource = z.infer<typeof contextSource>;

/** A skill, command or subagent offered to the model or the user: its name, where it came from, its hash. */
export const offeredItem = z.object({
  name: z.string(),
  description: z.string(),
  path: z.string(),
  sha256: z.string(),
  /** `user` for `~/.claude/...`, `project` for the working directory's. */
  scope: z.enum(["user", "project"]),
  /** A skill's `paths` globs: it is offered to the model only once it reads a file they match. */
  paths: z.array(z.string()).optional(),
});
export type OfferedItem = z.infer<typeof offeredItem>;

/**
 * What the model was given when the session started, beside the system prompt it holds: the
 * instruction files it was built from, and the skills, user commands and subagents offered. Shown
 * as a compact notice (`messageId`); `verbatim show --context` prints it. Recorded again when the
 * commands offered change between turns (the instruction files stay as they were recorded).
 */
export const contextGiven = lazySchema(() =>
  z.object({
    kind: z.literal("context_given"),
    messageId: z.string(),
    sources: z.array(contextSource),
    skills: z.array(offeredItem),
    commands: z.array(offeredItem),
    agents: z.array(offeredItem),
    /**
     * The settings' `claudeMdExcludes` patterns as read when the session started (a file loaded on
     * demand later is checked against these), and the instruction files they kept out of the
     * system prompt, each with the pattern. Absent in records written before they were kept.
     */
    excludes: z.array(z.string()).optional(),
    excluded: z.array(z.object({ path: z.string(), pattern: z.string() })).optional(),
  }),
);

/**
 * An instruction file loaded on demand (a subfolder's `CLAUDE.md` when the model first read a file
 * there, or a rule whose `paths:` matched it): its text, given to the model with the result of
 * `toolCallId` (the call that read there). Shown as a notice.
 */
export const instructionsLoaded = lazySchema(() =>
  z.object({
    kind: z.literal("instructions_loaded"),
    messageId: z.string(),
    toolCallId: z.string(),
    source: contextSource,
    text: z.string(),
  }),
);

export const contextFacts = [contextGiven, instructionsLoaded] as const;
