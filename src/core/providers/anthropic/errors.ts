/** What an Anthropic SDK failure means for the turn: cancelled, transient, or final. */
import { APIConnectionError, APIError, APIUserAbortError } from "../../../vendor/anthropic-sdk.ts";
import { errorText, isNetworkError, type Failure } from "../retry-policy.ts";

export function anthropicFailure(error: unknown): Failure {
  if (error instanceof APIUserAbortError) return { kind: "cancelled" };
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return { kind: "connection", message: `could not reach Anthropic: ${error.message}${cause}` };
  }
  if (error instanceof APIError) {
    return {
      kind: "api",
      message: `Anthropic: ${error.message}`,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.type ? { errorTypes: [error.type] } : {}),
      ...(error.headers ? { headers: error.headers } : {}),
    };
  }
  if (isNetworkError(error)) return { kind: "connection", message: `the connection to Anthropic dropped: ${errorText(error)}` };
  return { kind: "other", message: `Anthropic: ${errorText(error)}` };
}
