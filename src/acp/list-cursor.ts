/** Opaque `session/list` cursors: the position after the last session of a page. */
import { RequestError } from "@agentclientprotocol/sdk/unstable";

export type Position = { updatedAt: string; sessionId: string };

export const encodeCursor = (p: Position) => Buffer.from(JSON.stringify([p.updatedAt, p.sessionId])).toString("base64url");

export function decodeCursor(cursor: string): Position {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string") {
      return { updatedAt: value[0], sessionId: value[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw RequestError.invalidParams({ cursor }, "the cursor is not one this agent returned; start again without a cursor");
}
