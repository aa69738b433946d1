/**
 * What a failure of one of the official SDKs means for the turn: cancelled, transient, or final.
 * Anthropic's and OpenAI's SDKs raise the same three kinds of error (both are generated alike);
 * each adapter gives its SDK's classes, the provider's name as the user knows it, where it was
 * sent (for advice on a base URL that is likely wrong), and which error types (for the retry
 * policy) an API error carries. An HTML error page is shortened to its title.
 */
import type { ProviderKind } from "../config/settings-schema.ts";
import { baseUrlHint, readableFailure } from "./http-failure.ts";
import { errorText, isNetworkError, type Failure } from "./retry-policy.ts";
import { defined } from "../../shared/defined.ts";

type ErrorClass<E extends Error = Error> = abstract new (...args: never[]) => E;

export type SdkApiError = Error & { readonly status: number | undefined; readonly headers: Headers | undefined };

export type SdkErrorClasses<A extends SdkApiError> = {
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIError: ErrorClass<A>;
};

/** Where a request went: the provider's kind and its configured base URL, if any. */
export type RequestTarget = { kind: ProviderKind; baseUrl?: string | undefined };

export function sdkFailure<A extends SdkApiError>(
  label: string,
  where: RequestTarget,
  classes: SdkErrorClasses<A>,
  errorTypes: (error: A) => string[] | undefined,
) {
  return (error: unknown): Failure => {
    if (error instanceof classes.APIUserAbortError) return { kind: "cancelled" };
    if (error instanceof classes.APIConnectionError) {
      const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
      return { kind: "connection", message: `could not reach ${label}: ${error.message}${cause}` };
    }
    if (error instanceof classes.APIError) {
      const types = errorTypes(error);
      const { text, html } = readableFailure(error.message);
      const hint = baseUrlHint(where.kind, where.baseUrl, error.status, html);
      return {
        kind: "api",
        message: `${label}: ${text}${hint ? `; ${hint}` : ""}`,
        ...defined({ status: error.status, errorTypes: types, headers: error.headers }),
      };
    }
    if (isNetworkError(error))
      return { kind: "connection", message: `the connection to ${label} dropped: ${errorText(error)}` };
    return { kind: "other", message: `${label}: ${errorText(error)}` };
  };
}
