/** What an OpenAI SDK failure means for the turn: cancelled, transient, or final. */
import { APIConnectionError, APIError, APIUserAbortError } from "../../../vendor/openai-sdk.ts";
import { errorText, isNetworkError, type Failure } from "../retry-policy.ts";

export function openaiFailure(label: string) {
  return (error: unknown): Failure => {
    if (error instanceof APIUserAbortError) return { kind: "cancelled" };
    if (error instanceof APIConnectionError) {
      const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
      return { kind: "connection", message: `could not reach ${label}: ${error.message}${cause}` };
    }
    if (error instanceof APIError) {
      return {
        kind: "api",
        message: `${label}: ${error.message}`,
        ...(error.status !== undefined ? { status: error.status } : {}),
        errorTypes: [error.type, error.code].filter((t) => typeof t === "string"),
        ...(error.headers ? { headers: error.headers } : {}),
      };
    }
    if (isNetworkError(error)) return { kind: "connection", message: `the connection to ${label} dropped: ${errorText(error)}` };
    return { kind: "other", message: `${label}: ${errorText(error)}` };
  };
}
