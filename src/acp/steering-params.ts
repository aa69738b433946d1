/**
 * `_session/steering`: the Claude and Codex ACP adapters' extension method for text the user sends
 * while the agent works (agent-conventions §5.1), with their params. The parser is here, apart from
 * the handler, because the app registers it before the engine loads.
 */
import { z } from "zod";
import { contentBlock } from "../journal/facts/display-shapes.ts";

export const STEERING_METHOD = "_session/steering";

/** A text block must carry its text (the journal's content block schema checks only the tag). */
const steeringBlock = contentBlock.refine((block) => block.type !== "text" || typeof block.text === "string", {
  message: "a text block needs its text",
});

/**
 * `{sessionId, prompt, _meta?.steering?.idleBehavior}`: with `idleBehavior: "promptRequired"` an
 * idle session takes nothing and says so, for the client to send `session/prompt` itself.
 */
export const steeringParams = z.object({
  sessionId: z.string(),
  prompt: z.array(steeringBlock).min(1),
  _meta: z
    .object({ steering: z.object({ idleBehavior: z.enum(["promptRequired"]).optional() }).optional() })
    .passthrough()
    .nullish(),
});
export type SteeringParams = z.infer<typeof steeringParams>;
