import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { modelRef } from "./session.ts";

/** A slash command as shown to the client (ACP `AvailableCommand`). */
export const availableCommand = z.object({
  name: z.string(),
  description: z.string(),
  input: z.object({ hint: z.string() }).optional(),
});
export type Command = z.infer<typeof availableCommand>;

/**
 * The slash commands the client is offered from now on (the whole set). Recorded when a session
 * starts and whenever the set found in the project's command folders changed since.
 */
export const commandsAvailable = lazySchema(() =>
  z.object({
    kind: z.literal("commands_available"),
    commands: z.array(availableCommand),
  }),
);

/**
 * The prompt of `turnId` invoked a slash command. `modelText` is what the model is given instead
 * of the prompt's text (a user command's file with its arguments substituted); absent for a
 * command the engine carries out itself (`/compact`), whose prompt the model never sees.
 */
export const commandInvoked = lazySchema(() =>
  z.object({
    kind: z.literal("command_invoked"),
    turnId: z.string(),
    name: z.string(),
    arguments: z.string(),
    modelText: z.string().optional(),
  }),
);

/**
 * A user command or skill began to act for the rest of turn `turnId` (typed by the user, or loaded
 * by the model's `Skill` call `toolCallId`): as its front matter says, `allow` (`allowed-tools`)
 * and `deny` (`disallowed-tools`) are permission rules the gate decides the turn's later calls by,
 * `model` and `effort` what the turn's next model requests use; `hooks`, the skill's own hooks (as
 * written, their groups per event), are registered for the rest of the session, as Claude Code
 * registers them. What needs a trusted workspace
 * and did not have one (a project command's allow rules and hooks) is named in `withheld`
 * instead. Recorded as decided, so a reload decides and shows the same.
 */
export const commandActivated = lazySchema(() =>
  z.object({
    kind: z.literal("command_activated"),
    messageId: z.string(),
    turnId: z.string(),
    name: z.string(),
    path: z.string(),
    scope: z.enum(["user", "project"]),
    toolCallId: z.string().optional(),
    allow: z.array(z.string()),
    deny: z.array(z.string()),
    model: modelRef.optional(),
    effort: z.enum(["off", "low", "medium", "high"]).optional(),
    hooks: z.record(z.string(), z.array(z.unknown())).optional(),
    /** What the command asked for and did not get, each with why (`allowed-tools needs a trusted workspace`). */
    withheld: z.array(z.string()).optional(),
  }),
);
export type CommandActivated = z.infer<typeof commandActivated>;

export const commandFacts = [commandsAvailable, commandInvoked, commandActivated] as const;
