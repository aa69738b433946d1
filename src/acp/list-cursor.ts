/**
 * Opaque `session/list` cursors: the moment the listing's first page was read, and the position
 * (last activity, id, and for a listing by directory which part of it) after the last session of
 * a page. Every page of one listing is read as of that moment, so a session that changes
 * meanwhile is neither repeated nor skipped.
 */
import { RequestError } from "@agentclientprotocol/sdk/unstable";
import type { ListGroup } from "../core/session/list-here.ts";

export type Position = { asOf: string; updatedAt: string; sessionId: string; group: ListGroup };

export const encodeCursor = (p: Position) =>
  Buffer.from(JSON.stringify([p.asOf, p.updatedAt, p.sessionId, p.group])).toString("base64url");

export function decodeCursor(cursor: string): Position {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      (value.length === 3 || value.length === 4) &&
      value.every((v) => typeof v === "string")
    ) {
      const [asOf, updatedAt, sessionId, group = "here"] = value as [string, string, string, string?];
      if (group === "here" || group === "repository") return { asOf, updatedAt, sessionId, group };
    }
  } catch {
    // fall through to the error below
  }
  throw RequestError.invalidParams(
    { cursor },
    "the cursor is not one this agent returned; start again without a cursor",
  );
}
