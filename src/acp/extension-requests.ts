/** The extension methods the app forwards to the engine, with the parsers of their params. */
import { ATTACH_METHOD, attachParams, DETACH_METHOD, detachParams } from "./attach-params.ts";
import { EDIT_PROMPT_METHOD, editPromptParams, REWIND_METHOD, rewindParams } from "./rewind-params.ts";
import { STEERING_METHOD, steeringParams } from "./steering-params.ts";

export type ExtensionRequest = { method: string; params: { parse(value: unknown): unknown } };

export const EXTENSION_REQUESTS: readonly ExtensionRequest[] = [
  { method: REWIND_METHOD, params: rewindParams },
  { method: EDIT_PROMPT_METHOD, params: editPromptParams },
  { method: ATTACH_METHOD, params: attachParams },
  { method: DETACH_METHOD, params: detachParams },
  { method: STEERING_METHOD, params: steeringParams },
];
