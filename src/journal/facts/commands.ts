import { z } from "zod";

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
export const commandsAvailable = z.object({
  kind: z.literal("commands_available"),
  commands: z.array(availableCommand),
});

/**
 * The prompt of `turnId` invoked a slash command. `modelText` is what the model is given instead
 * of the prompt's text (a user command's file with its arguments substituted); absent for a
 * command the engine carries out itself (`/compact`), whose prompt the model never sees.
 */
export const commandInvoked = z.object({
  kind: z.literal("command_invoked"),
  turnId: z.string(),
  name: z.string(),
  arguments: z.string(),
  modelText: z.string().optional(),
});

export const commandFacts = [commandsAvailable, commandInvoked] as const;
