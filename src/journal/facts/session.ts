import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
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

/**
 * Where a session ran, as read when it started (sessions recorded before this have none): the
 * host, and for a git checkout its remote (normalized, no credentials), the session directory's
 * path inside the checkout ("" at its root, "/"-separated), the branch and the head commit.
 */
export const sessionOrigin = z.object({
  host: z.string(),
  git: z
    .object({
      remote: z.string().optional(),
      innerPath: z.string(),
      branch: z.string().optional(),
      head: z.string().optional(),
    })
    .optional(),
});
export type SessionOrigin = z.infer<typeof sessionOrigin>;

/** A process holding a session's lease: the machine, its pid and its start time (journal/process-identity.ts). */
export const sessionHolder = z.object({ host: z.string(), pid: z.number().int(), startTime: z.string() });

/**
 * Who writes the session from here: the first fact a process appends after taking the session's
 * lease (at its first write: a load alone writes nothing), naming the process and the directory
 * it works in. A rewind's file restore undoes only the edits made while the last of these (or the
 * start's `holder`) named this machine and workspace (core/session/rewind-files.ts).
 */
export const sessionHeld = lazySchema(() =>
  sessionHolder.extend({
    kind: z.literal("session_held"),
    cwd: z.string(),
  }),
);

/** The first fact of every session: where it runs and what the model is given. */
export const sessionStarted = lazySchema(() =>
  z.object({
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
    origin: sessionOrigin.optional(),
    /** The process that created the session and holds its lease (sessions recorded before this have none). */
    holder: sessionHolder.optional(),
  }),
);

export const titleSet = lazySchema(() =>
  z.object({
    kind: z.literal("title_set"),
    title: z.string(),
  }),
);

/**
 * A config option changed. `configOptions` is the whole set exactly as it was shown after the
 * change; `modeId` is set when the change was to the session mode.
 */
export const configChanged = lazySchema(() =>
  z.object({
    kind: z.literal("config_changed"),
    configId: z.string(),
    value: z.string(),
    configOptions: z.array(configOption),
    modeId: z.string().optional(),
  }),
);

/**
 * This session was forked from another: the records before this one are a copy of that
 * session's records 1..`fromSeq`, exactly as they were (a subagent's child session is marked by
 * `parentSessionId` instead, and is a different thing). Shows nothing; the model never sees it.
 */
export const sessionForked = lazySchema(() =>
  z.object({
    kind: z.literal("session_forked"),
    fromSessionId: z.string(),
    fromSeq: z.number().int().positive(),
    /** A fork at a message (`session/fork` with `messageId`): the message it holds last; `fromSeq` is its point. */
    atMessageId: z.string().optional(),
  }),
);

/**
 * The session was imported to live in another directory (`verbatim import`, in the current one or
 * `--cwd`): tools run in `cwd` from now on, and the model is told so with its next prompt. Shows
 * nothing: the transcript stays exactly as it was shown where the session ran.
 */
export const sessionMoved = lazySchema(() =>
  z.object({
    kind: z.literal("session_moved"),
    fromCwd: z.string(),
    cwd: z.string(),
    origin: sessionOrigin,
  }),
);

export const sessionFacts = [
  sessionStarted,
  sessionHeld,
  titleSet,
  configChanged,
  sessionForked,
  sessionMoved,
] as const;
