/**
 * Which provider failures are worth retrying, and how long the provider asked us to wait. The
 * SDKs' own retries are off (`maxRetries: 0`): the turn loop retries, with a visible notice,
 * only before anything was shown (src/core/turn/stream-step.ts).
 */
import type { ProviderEvent } from "./types.ts";
import { defined } from "../../shared/defined.ts";

export type ErrorEvent = Extract<ProviderEvent, { type: "error" }>;

/** A failure as the adapters see it, whatever SDK raised it. */
export type Failure =
  | { kind: "cancelled" }
  /** Could not connect, timed out, or the connection dropped. */
  | { kind: "connection"; message: string }
  /** The provider answered with an error: an HTTP status, or an error event mid-stream. */
  | { kind: "api"; message: string; status?: number; errorTypes?: string[]; headers?: Headers }
  | { kind: "other"; message: string };

/** HTTP statuses that say "try again later". 529 is Anthropic's "overloaded". */
const RETRYABLE_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);

/** 5xx statuses that say the server cannot do this at all (501 Not Implemented: often a wrong URL): asking again changes nothing. */
const FINAL_5XX = new Set([501, 505, 506, 508, 510, 511]);

/** Error types sent in a stream's error event that say "try again later". */
const RETRYABLE_TYPES = new Set([
  "overloaded_error",
  "api_error",
  "rate_limit_error",
  "server_error",
  "rate_limit_exceeded",
  "timeout_error",
]);

export function toErrorEvent(failure: Failure): ErrorEvent {
  switch (failure.kind) {
    case "cancelled":
      return { type: "error", message: "cancelled", retryable: false };
    case "connection":
      return { type: "error", message: failure.message, retryable: true };
    case "other":
      return { type: "error", message: failure.message, retryable: false };
    case "api": {
      const retryable =
        (failure.status !== undefined &&
          (RETRYABLE_STATUS.has(failure.status) || (failure.status >= 500 && !FINAL_5XX.has(failure.status)))) ||
        (failure.status === undefined && (failure.errorTypes ?? []).some((t) => RETRYABLE_TYPES.has(t)));
      const wait = retryable && failure.headers ? retryAfterMs(failure.headers) : undefined;
      return {
        type: "error",
        message: failure.message,
        retryable,
        ...defined({ retryAfterMs: wait }),
      };
    }
  }
}

/** `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in milliseconds. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Errors from the network layer below the SDK (a reset, a refused connection). */
export function isNetworkError(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  return /^E[A-Z]+$/.test(code) || /^UND_ERR/.test(code);
}

/** An error's message, without Bun's advice on how to debug fetch (not useful to the user). */
export const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(
    /\s*For more information, pass `verbose: true`.*$/s,
    "",
  );
