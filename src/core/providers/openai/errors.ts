/** What an OpenAI SDK failure means for the turn: cancelled, transient, or final. */
import { APIConnectionError, APIError, APIUserAbortError } from "../../../lazy-sdks/openai-sdk.ts";
import { sdkFailure, type RequestTarget } from "../sdk-failure.ts";

/**
 * `label`: the provider's name as the user knows it (OpenAI, or a configured compatible server);
 * `where`: its kind and base URL, for advice on a base URL that is likely wrong.
 */
export const openaiFailure = (label: string, where: RequestTarget) =>
  sdkFailure(label, where, { APIUserAbortError, APIConnectionError, APIError }, (error) =>
    [error.type, error.code].filter((t): t is string => typeof t === "string"),
  );
