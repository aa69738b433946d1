import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";

/**
 * A `Task` call started a subagent in its own child session (whose facts are journaled there,
 * under `sessionId`). The parent's card links to it; its progress is shown in the card through
 * the parent's own `tool_call_progressed` facts.
 */
export const subagentStarted = lazySchema(() =>
  z.object({
    kind: z.literal("subagent_started"),
    toolCallId: z.string(),
    sessionId: z.string(),
    subagentType: z.string(),
    description: z.string(),
  }),
);

export const subagentFacts = [subagentStarted] as const;
