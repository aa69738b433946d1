import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { answeredBy } from "./permissions.ts";

/**
 * A tool (AskUserQuestion) asked the user through the client (ACP `elicitation/create`, form
 * mode): the message and the form exactly as sent, recorded before the request goes out.
 */
export const questionAsked = lazySchema(() =>
  z.object({
    kind: z.literal("question_asked"),
    toolCallId: z.string(),
    message: z.string(),
    requestedSchema: z.record(z.string(), z.unknown()),
  }),
);

/**
 * How the question ended: the client's answer (`accept` with the form's content as checked
 * against the form, `decline`, `cancel`), or `cancel` by the turn (a `session/cancel` while it
 * was open) or with the error the request failed with. An accepted answer that did not fit the
 * form is recorded as `decline` with an `error` saying why (it counts as not answered).
 */
export const questionAnswered = lazySchema(() =>
  z.object({
    kind: z.literal("question_answered"),
    toolCallId: z.string(),
    action: z.enum(["accept", "decline", "cancel"]),
    content: z.record(z.string(), z.unknown()).optional(),
    cancelledBy: z.enum(["client", "turn"]).optional(),
    error: z.string().optional(),
    /** The client that answered, when it was not the writer's own (a controller: journal/answer-claims.ts). */
    answeredBy: answeredBy.optional(),
  }),
);

export type QuestionAnswered = z.infer<typeof questionAnswered>;

export const questionFacts = [questionAsked, questionAnswered] as const;
