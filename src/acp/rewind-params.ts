/**
 * The session-rewind RFD's two methods, which SDK 2.4.0 does not have: verbatim serves them as
 * extension methods (ACP: names starting with `_`), with the RFD's params. Their parsers are here,
 * apart from the handlers, because the app registers them before the engine loads.
 */
import { z } from "zod";
import { contentBlock } from "../journal/facts/display-shapes.ts";

export const REWIND_METHOD = "_verbatim/session/rewind";
export const EDIT_PROMPT_METHOD = "_verbatim/session/edit_prompt";

/** `{sessionId, toMessageId, files?}`: `files` also restores what verbatim's own edits changed after the point. */
export const rewindParams = z.object({
  sessionId: z.string(),
  toMessageId: z.string(),
  files: z.boolean().optional(),
});
export type RewindParams = z.infer<typeof rewindParams>;

/** A text block must carry its text (the journal's content block schema checks only the tag). */
const promptBlock = contentBlock.refine((block) => block.type !== "text" || typeof block.text === "string", {
  message: "a text block needs its text",
});

export const editPromptParams = z.object({
  sessionId: z.string(),
  messageId: z.string(),
  newContent: z.array(promptBlock).min(1),
  files: z.boolean().optional(),
});
export type EditPromptParams = z.infer<typeof editPromptParams>;
