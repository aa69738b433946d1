/** What an OpenAI SDK failure means for the turn: cancelled, transient, or final. */
import { APIConnectionError, APIError, APIUserAbortError } from "../../../vendor/openai-sdk.ts";
import type { ProviderKind } from "../../config/settings-schema.ts";
import { baseUrlHint, readableFailure } from "../http-failure.ts";
import { errorText, isNetworkError, type Failure } from "../retry-policy.ts";

/** `where`: the provider's kind and base URL, for advice on a base URL that is likely wrong. */
export function openaiFailure(label: string, where: { kind: ProviderKind; baseUrl?: string | undefined }) {
  return (error: unknown): Failure => {
    if (error instanceof APIUserAbortError) return { kind: "cancelled" };
    if (error instanceof APIConnectionError) {
      const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
      return { kind: "connection", message: `could not reach ${label}: ${error.message}${cause}` };
    }
    if (error instanceof APIError) {
      const { text, html } = readableFailure(error.message);
      const hint = baseUrlHint(where.kind, where.baseUrl, error.status, html);
      return {
        kind: "api",
        message: `${label}: ${text}${hint ? `; ${hint}` : ""}`,
        ...(error.status !== undefined ? { status: error.status } : {}),
        errorTypes: [error.type, error.code].filter((t) => typeof t === "string"),
        ...(error.headers ? { headers: error.headers } : {}),
      };
    }
    if (isNetworkError(error)) return { kind: "connection", message: `the connection to ${label} dropped: ${errorText(error)}` };
    return { kind: "other", message: `${label}: ${errorText(error)}` };
  };
}
