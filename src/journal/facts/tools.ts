import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { json, money, planEntry, toolCallContent, toolCallLocation, toolKind } from "./display-shapes.ts";

/** A tool call card as first shown: recorded so reload never calls tool code. */
export const toolCallAnnounced = lazySchema(() =>
  z.object({
    kind: z.literal("tool_call_announced"),
    toolCallId: z.string(),
    name: z.string(),
    title: z.string(),
    toolKind: toolKind,
    rawInput: json,
    locations: z.array(toolCallLocation),
    content: z.array(toolCallContent),
  }),
);

export const toolCallStarted = lazySchema(() =>
  z.object({
    kind: z.literal("tool_call_started"),
    toolCallId: z.string(),
  }),
);

/**
 * The card's own content changed while running (e.g. a terminal was attached). `title`, when
 * set, is the card's title from here on: a subagent's permission question retitles its `Task`
 * card to name the call that waits (the title the question was asked with), and its answer
 * gives the card its own title back. Absent in every record that kept the title.
 */
export const toolCallProgressed = lazySchema(() =>
  z.object({
    kind: z.literal("tool_call_progressed"),
    toolCallId: z.string(),
    content: z.array(toolCallContent),
    title: z.string().optional(),
  }),
);

/**
 * What a call gives the model besides its text: an image (as sent: already scaled to the models'
 * limits), or a PDF with the text taken out of it, for a wire that takes no documents. Their data
 * is stored once, by hash, in the journal's blob store (src/journal/blob-refs.ts).
 */
export const modelAttachment = z.discriminatedUnion("type", [
  z.object({ type: z.literal("image"), data: z.string(), mimeType: z.string() }),
  z.object({
    type: z.literal("document"),
    data: z.string(),
    mimeType: z.literal("application/pdf"),
    /** The file's name, which a wire that takes documents is given with it. */
    name: z.string(),
    /** The document's text, page by page: what a wire without documents is given instead. */
    text: z.string(),
  }),
]);
export type ModelAttachment = z.infer<typeof modelAttachment>;

/**
 * What the model is told about a call, kept apart from what the client is shown. `attachments`
 * (absent in records written before calls could give more than text) go with the text.
 */
export const modelResult = z.object({
  text: z.string(),
  isError: z.boolean(),
  attachments: z.array(modelAttachment).optional(),
});
export type ModelResult = z.infer<typeof modelResult>;

/** A call ran and settled. `content` and `rawOutput` are the display; `result` is the model's. */
export const toolCallFinished = lazySchema(() =>
  z.object({
    kind: z.literal("tool_call_finished"),
    toolCallId: z.string(),
    status: z.enum(["completed", "failed"]),
    content: z.array(toolCallContent),
    rawOutput: json.optional(),
    result: modelResult,
    /** What running the call cost, where it made priced model calls of its own (a subagent's session). */
    cost: money.optional(),
  }),
);

/** Who refused a call that never ran: the user, a hook, the mode, a cancel, or a saved rule. */
export const refusedBy = z.enum(["user", "hook", "mode", "cancel", "rule"]);

/** A call that never ran: refused by the user, a hook or the mode, or cancelled first. */
export const toolCallRefused = lazySchema(() =>
  z.object({
    kind: z.literal("tool_call_refused"),
    toolCallId: z.string(),
    by: refusedBy,
    reason: z.string(),
    result: modelResult,
  }),
);

export const planUpdated = lazySchema(() =>
  z.object({
    kind: z.literal("plan_updated"),
    entries: z.array(planEntry),
  }),
);

/**
 * The content of a file as a call left the model knowing it (read or written), by hash: an edit
 * or a write of that file is refused if its content changed since. Never shown to the client.
 */
export const fileSeen = lazySchema(() =>
  z.object({
    kind: z.literal("file_seen"),
    toolCallId: z.string(),
    path: z.string(),
    sha256: z.string(),
  }),
);

export const toolFacts = [
  toolCallAnnounced,
  toolCallStarted,
  toolCallProgressed,
  toolCallFinished,
  toolCallRefused,
  planUpdated,
  fileSeen,
] as const;
