/**
 * The one notification a follower's client is sent that is not a session update (the agent sends
 * it, verbatim's own client folds it: both sides name it here). The agent's side:
 * src/acp/attach-handlers.ts; docs/acp-language.md says this.
 */
import { z } from "zod";

/**
 * Sent to a follower when the session is rewound: the messages and tool calls to drop (what the
 * rewind's answer names to the client that asked for it), with the rewind's journal position.
 */
export const REWOUND_NOTIFICATION = "_verbatim/session/rewound";

export const rewoundParams = z.object({
  sessionId: z.string(),
  retracted: z.object({ messageIds: z.array(z.string()), toolCallIds: z.array(z.string()) }),
});
export type RewoundParams = z.infer<typeof rewoundParams>;
