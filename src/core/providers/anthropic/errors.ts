/** What an Anthropic SDK failure means for the turn: cancelled, transient, or final. */
import { APIConnectionError, APIError, APIUserAbortError } from "../../../vendor/anthropic-sdk.ts";
import { baseUrlHint, readableFailure } from "../http-failure.ts";
import { errorText, isNetworkError, type Failure } from "../retry-policy.ts";

/** `baseUrl`: the configured one, for advice when it is likely wrong. */
export const anthropicFailure = (baseUrl: string | undefined) => (error: unknown): Failure => {
  if (error instanceof APIUserAbortError) return { kind: "cancelled" };
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return { kind: "connection", message: `could not reach Anthropic: ${error.message}${cause}` };
  }
  if (error instanceof APIError) {
    const { text, html } = readableFailure(error.message);
    const hint = baseUrlHint("anthropic", baseUrl, error.status, html);
    return {
      kind: "api",
      message: `Anthropic: ${text}${hint ? `; ${hint}` : ""}`,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.type ? { errorTypes: [error.type] } : {}),
      ...(error.headers ? { headers: error.headers } : {}),
    };
  }
  if (isNetworkError(error)) return { kind: "connection", message: `the connection to Anthropic dropped: ${errorText(error)}` };
  return { kind: "other", message: `Anthropic: ${errorText(error)}` };
};
