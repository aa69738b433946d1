/**
 * The rewind extension methods as a client calls them, and what a client does with a rewind's
 * answer: it drops the messages and tool calls the answer names (every entry after the point).
 */
import type { ClientContext } from "@agentclientprotocol/sdk";
import {
  EDIT_PROMPT_METHOD,
  type ExtensionRequestParams,
  type ExtensionResult,
  REWIND_METHOD,
  requestExtension,
} from "../../src/protocol/extensions.ts";

export type { Retracted } from "../../src/protocol/extensions.ts";
export type RewindAnswer = ExtensionResult<typeof REWIND_METHOD>;
export type EditAnswer = ExtensionResult<typeof EDIT_PROMPT_METHOD>;

export const rewind = (ctx: ClientContext, params: ExtensionRequestParams<typeof REWIND_METHOD>) =>
  requestExtension(ctx, REWIND_METHOD, params);

export const editPrompt = (ctx: ClientContext, params: ExtensionRequestParams<typeof EDIT_PROMPT_METHOD>) =>
  requestExtension(ctx, EDIT_PROMPT_METHOD, params);

/** What a client does with the answer (the chat does the same): the named entries leave its view. */
export { dropRetracted } from "../../src/view/drop-retracted.ts";
