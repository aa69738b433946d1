import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { contentBlock, money, tokenCounts } from "./display-shapes.ts";
import { answeredBy } from "./permissions.ts";
import { modelRef } from "./session.ts";

/**
 * Embedded files the model is not given (by block index): a `Read` deny rule covered them when
 * the message was received, and `rule` names it. The client was shown the blocks as sent.
 */
const withheldBlocks = z.array(z.object({ index: z.number().int().nonnegative(), rule: z.string() })).optional();

/**
 * The user's prompt, exactly as received, with its engine-minted message id. `from`: the prompt
 * came from a controller attached in another process (its request in the session's inbox,
 * journal/session-inbox.ts), not from the writer's own client. `steered`: the turn was started by
 * a steering text sent while the session was idle (`_session/steering`), so no `session/prompt`
 * waits for its end. Absent in records written before steering existed.
 */
export const promptReceived = lazySchema(() =>
  z.object({
    kind: z.literal("prompt_received"),
    turnId: z.string(),
    messageId: z.string(),
    blocks: z.array(contentBlock),
    from: z.object({ requestId: z.string(), by: answeredBy }).optional(),
    /**
     * Embedded files the model is not given (by block index): a `Read` deny rule covered them when
     * the prompt was received, and `rule` names it. The client was shown the blocks as sent.
     */
    withheld: withheldBlocks,
    steered: z.literal(true).optional(),
  }),
);

/**
 * A steering text (`_session/steering`) sent while a turn ran, given to the model at the turn's
 * next step: recorded where it landed (before that step), exactly as received, with its own
 * engine-minted message id. A user message inside the turn, for the client and the model alike.
 */
export const steeringReceived = lazySchema(() =>
  z.object({
    kind: z.literal("steering_received"),
    turnId: z.string(),
    messageId: z.string(),
    blocks: z.array(contentBlock),
    /** Embedded files the model is not given, as a prompt's (`prompt_received.withheld`). */
    withheld: withheldBlocks,
  }),
);
export type PromptFrom = NonNullable<z.infer<typeof promptReceived>["from"]>;

/** A piece of streamed thinking or answer text, as it was shown. */
export const messageChunk = lazySchema(() =>
  z.object({
    kind: z.literal("message_chunk"),
    stepId: z.string(),
    messageId: z.string(),
    stream: z.enum(["thought", "answer"]),
    text: z.string(),
  }),
);

/** A model call the engine accepted: the pairing between public and provider ids. */
export const acceptedCall = z.object({
  toolCallId: z.string(),
  providerCallId: z.string(),
  name: z.string(),
  input: z.unknown(),
});
export type AcceptedCall = z.infer<typeof acceptedCall>;

/**
 * A model step ended. What the client saw is in the step's chunks; this record holds what the
 * model needs to continue: the accepted calls and the provider's private continuity data
 * (signatures, encrypted reasoning, item ids), never shown to the client.
 */
export const stepEnded = lazySchema(() =>
  z.object({
    kind: z.literal("step_ended"),
    turnId: z.string(),
    stepId: z.string(),
    model: modelRef,
    outcome: z.enum(["completed", "failed", "cancelled"]),
    stopReason: z.enum(["end_turn", "tool_use", "max_tokens", "refusal"]).optional(),
    error: z.string().optional(),
    calls: z.array(acceptedCall),
    continuity: z.unknown().optional(),
  }),
);

export const usageRecorded = lazySchema(() =>
  z.object({
    kind: z.literal("usage_recorded"),
    stepId: z.string(),
    ...tokenCounts.shape,
    /** Tokens in context after the step, and the model's window, as shown. */
    used: z.number(),
    size: z.number(),
    /** This step's cost, where the model's price is known. */
    cost: money.optional(),
    /**
     * The session's cost so far, this step's included: what the update showed (`usage_update.cost`
     * is cumulative). Absent in records written before it was kept, which showed `cost`.
     */
    sessionCost: money.optional(),
  }),
);

/** Something the user should know that is not part of the conversation (retries, redactions). */
export const noticeShown = lazySchema(() =>
  z.object({
    kind: z.literal("notice_shown"),
    messageId: z.string(),
    severity: z.enum(["info", "warning", "error"]),
    title: z.string(),
    description: z.string().optional(),
  }),
);

export const turnEnded = lazySchema(() =>
  z.object({
    kind: z.literal("turn_ended"),
    turnId: z.string(),
    outcome: z.enum(["completed", "failed"]),
    stopReason: z.enum(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]).optional(),
    error: z.string().optional(),
    /**
     * The turn is taken back: its prompt and everything after it leave the model's context and a
     * reload does not show them (ACP's `refusal`: "the user prompt and everything that comes after
     * it won't be included in the next prompt", and clients remove it). Absent in records written
     * before it was kept: those turns stay, as they did.
     */
    retracted: z.literal(true).optional(),
  }),
);

/**
 * The session continued after a process died mid-turn. Written when the next turn starts, it
 * records what the model is told about calls whose outcome is unknown.
 */
export const sessionRecovered = lazySchema(() =>
  z.object({
    kind: z.literal("session_recovered"),
    interruptedTurnId: z.string().optional(),
    calls: z.array(
      z.object({
        toolCallId: z.string(),
        /** False when the call was still waiting for permission: it never ran. */
        mayHaveRun: z.boolean(),
        modelText: z.string(),
      }),
    ),
  }),
);

export const turnFacts = [
  promptReceived,
  steeringReceived,
  messageChunk,
  stepEnded,
  usageRecorded,
  noticeShown,
  turnEnded,
  sessionRecovered,
] as const;
