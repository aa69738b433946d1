/**
 * verbatim's ACP extensions, in one place: each extension method's name, params and result, the
 * one notification a follower is sent that is not a session update, and the reasons their errors
 * name (`error.data.reason`). These zod schemas are the single source of those types: the agent's
 * handlers (src/acp) are typed by them and the app parses each request's params with them before
 * the engine loads; the CLI and verbatim's own client (src/client) call the methods through
 * `requestExtension`, which parses each answer with them. docs/acp-language.md lists the same
 * names (test/docs/acp-extensions-docs.test.ts holds the list and this module equal).
 *
 * SDK 2.4.0 has none of them: the rewind and attach methods are the session-rewind and
 * multi-client-attach RFDs' served as `_verbatim/...` extension methods; `_session/steering` is
 * the Claude and Codex adapters' own (agent-conventions §5.1).
 */
import type { ClientContext, SessionConfigOption, SessionModeState, StopReason } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { contentBlock } from "../journal/facts/display-shapes.ts";
import { filesRestored } from "../journal/facts/rewind.ts";
import { lazySchema } from "../shared/lazy-schema.ts";

/** A text block must carry its text (the journal's content block schema checks only the tag). */
const promptBlock = lazySchema(() =>
  contentBlock.refine((block) => block.type !== "text" || typeof block.text === "string", {
    message: "a text block needs its text",
  }),
);

/** The messages and tool calls a rewind took out of the client's view: the client drops them. */
export const retracted = lazySchema(() =>
  z.object({ messageIds: z.array(z.string()), toolCallIds: z.array(z.string()) }),
);
export type Retracted = z.infer<typeof retracted>;

const stopReason = lazySchema(
  () => z.enum(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]) satisfies z.ZodType<StopReason>,
);

// ---- Rewind and edit a prompt (the session-rewind RFD's `session/rewind` and `session/edit_prompt`)

export const REWIND_METHOD = "_verbatim/session/rewind";
export const EDIT_PROMPT_METHOD = "_verbatim/session/edit_prompt";

/** `files` also restores what verbatim's own edits changed after the point. */
export const rewindParams = lazySchema(() =>
  z.object({
    sessionId: z.string(),
    toMessageId: z.string(),
    files: z.boolean().optional(),
  }),
);

export const editPromptParams = lazySchema(() =>
  z.object({
    sessionId: z.string(),
    messageId: z.string(),
    newContent: z.array(promptBlock).min(1),
    files: z.boolean().optional(),
  }),
);

/** What both answers carry under `_meta.verbatim`: what the client drops, and how a file restore ended. */
const rewoundMeta = lazySchema(() =>
  z.looseObject({
    verbatim: z.looseObject({
      retracted,
      /** The turn that was running and was cancelled first. */
      cancelledTurnId: z.string().optional(),
      /** Asked with `files: true`: what the restore did. */
      files: filesRestored.optional(),
      restore: z
        .object({
          restoreId: z.string(),
          outcome: z.enum(["completed", "refused"]),
          reason: z.string().optional(),
        })
        .optional(),
    }),
  }),
);

/** The RFD's answer; `remainingMessageCount` only when the session holds the index of all its messages. */
export const rewindResult = lazySchema(() =>
  z.looseObject({
    lastMessageId: z.string().nullable(),
    remainingMessageCount: z.number().int().nonnegative().optional(),
    _meta: rewoundMeta,
  }),
);

/** As `session/prompt` answers, once the new prompt's turn ends. */
export const editPromptResult = lazySchema(() => z.looseObject({ stopReason, _meta: rewoundMeta }));

// ---- Follow a running session (the multi-client-attach RFD's `session/attach` and `session/detach`)

export const ATTACH_METHOD = "_verbatim/session/attach";
export const DETACH_METHOD = "_verbatim/session/detach";

export const attachParams = lazySchema(() =>
  z.object({
    sessionId: z.string(),
    /**
     * An observer (the default) is shown the session; a controller is also asked its permission
     * questions, and the first answer from any client holds (journal/answer-claims.ts).
     */
    role: z.enum(["observer", "controller"]).optional(),
    historyPolicy: z.enum(["full", "none"]).optional(),
    /** The last position the client has (from an update's `_meta.verbatim.position`): only what follows it is sent. */
    replayFrom: z.number().int().nonnegative().optional(),
  }),
);

/**
 * Sent once the history is: the last position it shows, the live process holding the session (its
 * machine, pid and start time) or null, and the mode and config options as of that position.
 */
export const attachResult = lazySchema(() =>
  z.looseObject({
    sessionId: z.string(),
    role: z.enum(["observer", "controller"]),
    position: z.number().int().nonnegative(),
    writer: z.object({ host: z.string(), pid: z.number().int(), startTime: z.string() }).nullable(),
    // The SDK's own shapes (it exports no schema for them): checked as far as their kind.
    modes: z.custom<SessionModeState>((v) => typeof v === "object" && v !== null, "modes is an object"),
    configOptions: z.custom<SessionConfigOption[]>(Array.isArray, "configOptions is an array"),
  }),
);

export const detachParams = lazySchema(() => z.object({ sessionId: z.string() }));
export const detachResult = lazySchema(() => z.object({}));

// ---- Steering (claude-agent-acp's and codex-acp's `_session/steering`)

export const STEERING_METHOD = "_session/steering";

/**
 * With `idleBehavior: "promptRequired"` an idle session takes nothing and says so, for the client
 * to send `session/prompt` itself.
 */
export const steeringParams = lazySchema(() =>
  z.object({
    sessionId: z.string(),
    prompt: z.array(promptBlock).min(1),
    _meta: z
      .looseObject({ steering: z.object({ idleBehavior: z.enum(["promptRequired"]).optional() }).optional() })
      .nullish(),
  }),
);

export const steeringResult = lazySchema(() =>
  z.union([
    z.object({ outcome: z.enum(["injected", "startedNewTurn"]) }),
    z.object({ outcome: z.literal("promptRequired"), reason: z.literal("noRunningTurn") }),
  ]),
);

// ---- The notification

/**
 * Sent to a follower when the session is rewound: what the rewind's answer named to the client that
 * asked for it, with the rewind's journal position under `_meta.verbatim.position`.
 */
export const REWOUND_NOTIFICATION = "_verbatim/session/rewound";

export const rewoundParams = lazySchema(() =>
  z.object({
    sessionId: z.string(),
    retracted,
    _meta: z.looseObject({ verbatim: z.looseObject({ position: z.number().int().positive() }) }).optional(),
  }),
);

// ---- The table

/** Every extension method verbatim serves, with its params and its result. */
export const EXTENSION_METHODS = {
  [REWIND_METHOD]: { params: rewindParams, result: rewindResult },
  [EDIT_PROMPT_METHOD]: { params: editPromptParams, result: editPromptResult },
  [ATTACH_METHOD]: { params: attachParams, result: attachResult },
  [DETACH_METHOD]: { params: detachParams, result: detachResult },
  [STEERING_METHOD]: { params: steeringParams, result: steeringResult },
} as const satisfies Record<`_${string}`, { params: z.ZodType; result: z.ZodType }>;

/** Every extension notification verbatim sends, with its params. */
export const EXTENSION_NOTIFICATIONS = {
  [REWOUND_NOTIFICATION]: { params: rewoundParams },
} as const satisfies Record<`_${string}`, { params: z.ZodType }>;

export type ExtensionMethod = keyof typeof EXTENSION_METHODS;
/** A method's params as the handler reads them (parsed). */
export type ExtensionParams<M extends ExtensionMethod> = z.output<(typeof EXTENSION_METHODS)[M]["params"]>;
/** A method's params as a client writes them. */
export type ExtensionRequestParams<M extends ExtensionMethod> = z.input<(typeof EXTENSION_METHODS)[M]["params"]>;
export type ExtensionResult<M extends ExtensionMethod> = z.output<(typeof EXTENSION_METHODS)[M]["result"]>;
export type ExtensionNotification = keyof typeof EXTENSION_NOTIFICATIONS;
export type ExtensionNotificationParams<N extends ExtensionNotification> = z.input<
  (typeof EXTENSION_NOTIFICATIONS)[N]["params"]
>;

/**
 * The reasons an extension method's error names in `error.data.reason`, beside the SDK's code:
 * `unknown_message` (-32602: a rewind or edit names a message the session does not show, or a
 * thought's), `turn_failed` (-32603: an edit's new turn failed), `not_writer` (-32600: steering a
 * session another process writes).
 */
export const extensionErrorReason = lazySchema(() => z.enum(["unknown_message", "turn_failed", "not_writer"]));
export type ExtensionErrorReason = z.infer<typeof extensionErrorReason>;

/** The reason an error from an extension method names, if it is one of those. */
export function extensionErrorReasonOf(error: unknown): ExtensionErrorReason | undefined {
  const reason = (error as { data?: { reason?: unknown } } | undefined)?.data?.reason;
  const parsed = extensionErrorReason.safeParse(reason);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Calls an extension method as a client: its params typed by the method, its answer checked
 * against the method's result schema (a malformed answer rejects with zod's error).
 */
export async function requestExtension<M extends ExtensionMethod>(
  agent: ClientContext,
  method: M,
  params: ExtensionRequestParams<M>,
): Promise<ExtensionResult<M>> {
  const answer = await agent.request<unknown, ExtensionRequestParams<M>>(method, params);
  return EXTENSION_METHODS[method].result.parse(answer) as ExtensionResult<M>;
}
