/** What an OpenAI SDK failure means for the turn: cancelled, transient, or final. */
import { APIConnectionError, APIError, APIUserAbortError } from "../../../lazy-sdks/openai-sdk.ts";
import { sdkFailure } from "../sdk-failure.ts";

/** `label`: the provider's name as the user knows it (OpenAI, or a configured compatible server). */
export const openaiFailure = (label: string) =>
  sdkFailure(label, { APIUserAbortError, APIConnectionError, APIError }, (error) => [error.type, error.code].filter((t): t is string => typeof t === "string"));
