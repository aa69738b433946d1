/**
 * What a hook reads on stdin: one JSON object with Claude Code's field names. It is built as a
 * value and serialized once by `JSON.stringify`, so text from the model or a tool (quotes,
 * newlines, control characters, U+2028) arrives intact inside its own field and can never forge
 * another. The common fields are set last: an event field can never replace them.
 */
import type { HookEventName } from "./events.ts";

export type CommonFields = {
  /** The user-facing (root) session. */
  session_id: string;
  /** Claude Code's transcript file; verbatim keeps its journal in SQLite, so there is none. */
  transcript_path: null;
  cwd: string;
  permission_mode: string;
  /** verbatim's turn id (Codex's field name), on turn events. */
  turn_id?: string;
  /** The id of the user prompt the turn answers (Claude Code's field name). */
  prompt_id?: string;
};

export function payloadOf(event: HookEventName, common: CommonFields, fields: Record<string, unknown>): string {
  return JSON.stringify({ ...fields, ...withoutUndefined(common), hook_event_name: event });
}

function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
