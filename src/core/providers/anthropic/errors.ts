/** What an Anthropic SDK failure means for the turn: cancelled, transient, or final. */
import { APIConnectionError, APIError, APIUserAbortError } from "../../../lazy-sdks/anthropic-sdk.ts";
import { sdkFailure } from "../sdk-failure.ts";

/** `baseUrl`: the configured one, for advice when it is likely wrong. */
export const anthropicFailure = (baseUrl: string | undefined) =>
  sdkFailure(
    "Anthropic",
    { kind: "anthropic", baseUrl },
    { APIUserAbortError, APIConnectionError, APIError },
    (error) => (error.type ? [error.type] : undefined),
  );
