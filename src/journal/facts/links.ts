import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { contentBlock } from "./display-shapes.ts";

/**
 * A `resource_link` of a prompt that names a file, read when the prompt was received: `content`
 * is what the model is given in the link's place (an embedded resource with the file's text, or
 * the image), or `reason` says why it was not read (outside the session's directories, missing,
 * a binary file). `block` is the link's index in the prompt's blocks. Shown to the client as a
 * line of its own (`messageId`), and never recomputed: a reload gives the model this content,
 * whatever the file holds then.
 */
export const promptLinkRead = lazySchema(() =>
  z.object({
    kind: z.literal("prompt_link_read"),
    turnId: z.string(),
    messageId: z.string(),
    block: z.number().int().nonnegative(),
    uri: z.string(),
    /** The file read, as confinement resolved it. */
    path: z.string().optional(),
    /** Its size in bytes. */
    bytes: z.number().int().nonnegative().optional(),
    content: contentBlock.optional(),
    reason: z.string().optional(),
    /** The line the client was shown: that the file was read and given to the model, or why not. */
    text: z.string(),
  }),
);

export const linkFacts = [promptLinkRead] as const;
