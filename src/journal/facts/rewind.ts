import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";

/** A run of records a rewind took back: `fromSeq` to `toSeq`, both included. */
export const retractedRange = z.object({ fromSeq: z.number().int().positive(), toSeq: z.number().int().positive() });
export type RetractedRange = z.infer<typeof retractedRange>;

/** What a rewind's file restore did (core/session/rewind-files.ts). */
export const filesRestored = z.object({
  restored: z.array(z.string()),
  /** Files verbatim created after the point, removed. */
  removed: z.array(z.string()),
  leftAlone: z.array(z.object({ path: z.string(), reason: z.string() })),
  /** Commands that ran after the point: what they did is never undone. */
  commandsRun: z.number().int().nonnegative(),
});
export type FilesRestored = z.infer<typeof filesRestored>;

/**
 * The session was taken back to an earlier point (`session/rewind`, or `session/edit_prompt`
 * before it runs the new prompt): the records after `toSeq` and before this one leave the model's
 * context and a reload does not show their entries, as the client dropped them when it was
 * answered. Nothing is deleted: the journal keeps them, append-only. `earlier` lists the runs
 * earlier rewinds took back that stay taken back (those before `toSeq`), so the session's last
 * rewind says every run taken back: a load reads only that one (replay/retraction.ts).
 */
export const sessionRewound = lazySchema(() =>
  z.object({
    kind: z.literal("session_rewound"),
    /** The last record kept (a message's point: replay/message-points.ts). */
    toSeq: z.number().int().nonnegative(),
    /** `session/rewind`: the message kept last. */
    toMessageId: z.string().optional(),
    /** `session/edit_prompt`: the user message taken back with everything after it. */
    beforeMessageId: z.string().optional(),
    /** The turn that was running and was cancelled first, if any. */
    cancelledTurnId: z.string().optional(),
    earlier: z.array(retractedRange),
    /** Asked to restore files too: what the restore did, before this record was written. */
    files: filesRestored.optional(),
    /**
     * The messages and tool calls the rewind took out of the client's view, as its answer named
     * them (absent in records written before it was recorded): what a follower is told to drop.
     */
    retracted: z.object({ messageIds: z.array(z.string()), toolCallIds: z.array(z.string()) }).optional(),
  }),
);

export const rewindFacts = [sessionRewound] as const;
