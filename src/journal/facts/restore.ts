import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { filesRestored } from "./rewind.ts";

/**
 * A file a restore puts back: the text it must hold now (what verbatim's own last edit left
 * there), and the text it gets (null: verbatim created it, and it is removed).
 */
export const fileToRestore = z.object({ path: z.string(), from: z.string(), to: z.string().nullable() });
export type FileToRestore = z.infer<typeof fileToRestore>;

/**
 * A rewind's file restore, as its own step after the rewind (core/session/restore-step.ts): its
 * card, shown to the user and never to the model, listing every file it would put back with its
 * diff, and those it leaves alone with why. Recorded before anything is asked or changed: with
 * `files_restore_started`, the intent of the restore (the paths and the texts they must hold).
 */
export const filesRestorePlanned = lazySchema(() =>
  z.object({
    kind: z.literal("files_restore_planned"),
    /** The card's id (a tool call id the engine minted). */
    restoreId: z.string(),
    /** The message the rewind went back to, when it named one. */
    toMessageId: z.string().optional(),
    files: z.array(fileToRestore),
    leftAlone: z.array(z.object({ path: z.string(), reason: z.string() })),
    /** Commands that ran after the point: what they did is never undone. */
    commandsRun: z.number().int().nonnegative(),
  }),
);

/** The restore was allowed and its files change from here: a load that finds no end after it says they may be half restored. */
export const filesRestoreStarted = lazySchema(() =>
  z.object({
    kind: z.literal("files_restore_started"),
    restoreId: z.string(),
  }),
);

/** How the restore ended: what it did (`completed`), or that it was refused, with why (nothing changed). */
export const filesRestoreEnded = lazySchema(() =>
  z.object({
    kind: z.literal("files_restore_ended"),
    restoreId: z.string(),
    outcome: z.enum(["completed", "refused"]),
    reason: z.string().optional(),
    files: filesRestored,
  }),
);

export const restoreFacts = [filesRestorePlanned, filesRestoreStarted, filesRestoreEnded] as const;
