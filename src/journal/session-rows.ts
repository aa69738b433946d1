/** A `sessions` row as both stores keep it (same columns, same JSON text fields), and its reading. */
import type { SessionRow } from "./store.ts";

export type SessionDbRow = {
  session_id: string;
  cwd: string;
  additional_directories: string;
  title: string | null;
  created_at: string;
  updated_at: string;
  parent_session_id: string | null;
  /** Absent from an SQLite database no writer of this version has opened yet. */
  forked_from?: string | null;
};

export function toSessionRow(row: SessionDbRow): SessionRow {
  return {
    sessionId: row.session_id,
    cwd: row.cwd,
    additionalDirectories: JSON.parse(row.additional_directories) as string[],
    ...(row.title !== null ? { title: row.title } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.parent_session_id !== null ? { parentSessionId: row.parent_session_id } : {}),
    ...(row.forked_from ? { forkOf: JSON.parse(row.forked_from) as { sessionId: string; seq: number } } : {}),
  };
}
