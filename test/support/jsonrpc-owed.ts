/**
 * What an agent owes for one input line, by JSON-RPC 2.0 and ACP's rules (as the SDK applies
 * them): a request gets one response with its id; a line that is not JSON, not an object, a batch,
 * or an object that is neither a request, a notification nor a response gets one error with
 * `id: null`; notifications and responses get nothing. The fuzz suite checks the agent against it.
 */

/** One response with this id, one error with id null, or nothing. */
export type Owed = { kind: "id"; id: string | number | null; method: string } | { kind: "null" } | { kind: "none" };

const decoder = new TextDecoder();

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const isId = (v: unknown) => v === null || typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

/** What is owed for `line` (its bytes without the newline), read the way the agent reads it. */
export function owedFor(line: Uint8Array): Owed {
  // Invalid UTF-8 becomes U+FFFD, as in any reader that decodes without `fatal`.
  const text = decoder.decode(line).trim();
  if (!text) return { kind: "none" };
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { kind: "null" };
  }
  if (Array.isArray(message) || !isRecord(message)) return { kind: "null" };
  const envelope = message.jsonrpc === "2.0";
  const hasId = "id" in message;
  const hasMethod = "method" in message;
  const request = envelope && hasId && typeof message.method === "string" && isId(message.id);
  const notification = envelope && !hasId && typeof message.method === "string";
  const responseShaped = !hasMethod && (hasId || "result" in message || "error" in message);
  if (request) return { kind: "id", id: message.id as string | number | null, method: message.method as string };
  if (notification || responseShaped) return { kind: "none" };
  return { kind: "null" };
}
