/**
 * Following a running session from another client: the multi-client-session-attach RFD's
 * `session/attach` and `session/detach` (SDK 2.4.0 has neither), as extension methods, with the
 * RFD's `historyPolicy` and the ACP Remote draft's replay after a position. Only the observer role
 * is served (docs/acp-language.md). The parsers are here because the app registers them before the
 * engine loads.
 */
import { z } from "zod";

export const ATTACH_METHOD = "_verbatim/session/attach";
export const DETACH_METHOD = "_verbatim/session/detach";

export const attachParams = z.object({
  sessionId: z.string(),
  /** An observer is shown the session and cannot prompt, answer or cancel; the only role served. */
  role: z.literal("observer").optional(),
  historyPolicy: z.enum(["full", "none"]).optional(),
  /** The last position the client has (from an update's `_meta.verbatim.position`): only what follows it is sent. */
  replayFrom: z.number().int().nonnegative().optional(),
});
export type AttachParams = z.infer<typeof attachParams>;

export const detachParams = z.object({ sessionId: z.string() });
