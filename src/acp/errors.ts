/**
 * Turning engine and journal conditions into the SDK's typed protocol errors. Everything a client
 * can cause gets a precise code and a message that says what to do; nothing leaves as a bare Error.
 */
import { RequestError } from "@agentclientprotocol/sdk/unstable";
import { EngineError } from "../core/errors.ts";
import { JournalError } from "../journal/errors.ts";

export function toRequestError(error: unknown): unknown {
  if (error instanceof RequestError) return error;
  if (error instanceof JournalError) {
    const data = { reason: error.code, ...error.details };
    switch (error.code) {
      case "not_found":
        return new RequestError(-32002, error.message, data);
      case "busy":
      case "stale_write":
      case "inbox_full":
        return RequestError.invalidRequest(data, error.message);
      default:
        return RequestError.internalError(data, error.message);
    }
  }
  if (error instanceof EngineError) {
    const data = { reason: error.code, ...error.details };
    switch (error.code) {
      case "no_provider":
        return RequestError.authRequired(data, error.message);
      case "invalid_config":
      case "unsupported_content":
      case "not_forkable":
      case "unknown_message":
      case "invalid_title":
        return RequestError.invalidParams(data, error.message);
      case "turn_running":
      case "queue_full":
      case "closed":
      case "cwd_missing":
      case "no_writer":
        return RequestError.invalidRequest(data, error.message);
      case "turn_failed":
      case "following_ended":
        return RequestError.internalError(data, error.message);
    }
  }
  return error;
}

/** Runs a handler body, rethrowing failures as typed protocol errors. */
export async function typed<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toRequestError(error);
  }
}

export const unknownSession = (sessionId: string, hint = "") =>
  new RequestError(-32002, `Resource not found: session ${sessionId}${hint ? ` ${hint}` : ""}`, { sessionId });

/** A request the client cancelled (`$/cancel_request`, the handler's `signal`) answers with the SDK's `-32800`. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof RequestError ? signal.reason : RequestError.requestCancelled();
}
