/** What an Anthropic SDK failure means for the turn: cancelled, transient, or final. */
import { APIConnectionError, APIError, APIUserAbortError } from "../../../lazy-sdks/anthropic-sdk.ts";
import { sdkFailure } from "../sdk-failure.ts";

export const anthropicFailure = sdkFailure("Anthropic", { APIUserAbortError, APIConnectionError, APIError }, (error) => (error.type ? [error.type] : undefined));
