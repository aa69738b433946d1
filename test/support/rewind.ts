/**
 * The rewind extension methods as a client calls them, and what a client does with a rewind's
 * answer: it drops the messages and tool calls the answer names (every entry after the point).
 */
import type { ClientContext, ContentBlock, StopReason } from "@agentclientprotocol/sdk";
import type { FilesRestored } from "../../src/journal/facts/index.ts";
import { EDIT_PROMPT_METHOD, REWIND_METHOD } from "../../src/acp/rewind-params.ts";

export type Retracted = { messageIds: string[]; toolCallIds: string[] };
type Meta = { _meta: { verbatim: { retracted: Retracted; cancelledTurnId?: string; files?: FilesRestored } } };
export type RewindAnswer = { lastMessageId: string | null; remainingMessageCount?: number } & Meta;
export type EditAnswer = { stopReason: StopReason } & Meta;

const send = (ctx: ClientContext) =>
  ctx.request.bind(ctx) as unknown as <T>(method: string, params: unknown) => Promise<T>;

export const rewind = (ctx: ClientContext, params: { sessionId: string; toMessageId: string; files?: boolean }) =>
  send(ctx)<RewindAnswer>(REWIND_METHOD, params);

export const editPrompt = (
  ctx: ClientContext,
  params: { sessionId: string; messageId: string; newContent: ContentBlock[]; files?: boolean },
) => send(ctx)<EditAnswer>(EDIT_PROMPT_METHOD, params);

/** What a client does with the answer (the chat does the same): the named entries leave its view. */
export { dropRetracted } from "../../src/view/drop-retracted.ts";
