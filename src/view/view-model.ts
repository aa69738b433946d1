/**
 * What a client holds after folding every session update it received: messages by id, tool
 * cards merged the way the spec says (fields replace; `content`, `locations` and `_meta` replace
 * whole), the plan, mode, config, title, usage and commands. The parity tests compare two of
 * these, field by field: one folded live, one folded from a reload.
 */
import type {
  AvailableCommand,
  ContentBlock,
  PlanEntry,
  SessionConfigOption,
  SessionUpdate,
  ToolCallContent,
  ToolCallLocation,
} from "@agentclientprotocol/sdk";

export type MessageView = {
  id: string;
  role: "user" | "agent" | "thought";
  content: ContentBlock[];
  meta?: Record<string, unknown>;
};

export type ToolCardView = {
  toolCallId: string;
  name?: string;
  title: string;
  kind: string;
  status: string;
  rawInput?: unknown;
  rawOutput?: unknown;
  locations?: ToolCallLocation[];
  content?: ToolCallContent[];
  meta?: Record<string, unknown>;
};

/** A context compaction as a client that advertised `session.compaction` holds it. */
export type CompactionView = { compactionId: string; status: string; summary: ContentBlock[]; error?: string };

export type ViewModel = {
  /** Messages, tool cards and compactions in the order they first appeared: "message:<id>", "tool:<id>", "compaction:<id>". */
  timeline: string[];
  messages: Record<string, MessageView>;
  toolCalls: Record<string, ToolCardView>;
  compactions: Record<string, CompactionView>;
  plan: PlanEntry[] | null;
  modeId: string | null;
  configOptions: SessionConfigOption[] | null;
  title: string | null;
  updatedAt: string | null;
  usage: { used: number; size: number; cost?: { amount: number; currency: string } | null } | null;
  commands: AvailableCommand[] | null;
  /** ACP `notice` updates: live-only by definition, so parity leaves them out. */
  notices: { severity: string; title: string; description?: string | null }[];
  /** Updates a client could not apply (e.g. an update for an unknown tool call). */
  problems: string[];
};

export const emptyView = (): ViewModel => ({
  timeline: [],
  messages: {},
  toolCalls: {},
  compactions: {},
  plan: null,
  modeId: null,
  configOptions: null,
  title: null,
  updatedAt: null,
  usage: null,
  commands: null,
  notices: [],
  problems: [],
});

const roles = {
  user_message_chunk: "user",
  agent_message_chunk: "agent",
  agent_thought_chunk: "thought",
} as const;

type UpdateOf<K extends SessionUpdate["sessionUpdate"]> = Extract<SessionUpdate, { sessionUpdate: K }>;

/** A message chunk joins its message (by id), which enters the timeline the first time it is seen. */
function messageChunk(
  view: ViewModel,
  update: UpdateOf<"user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk">,
): void {
  const role = roles[update.sessionUpdate];
  const id = update.messageId ?? `(no id ${view.timeline.length})`;
  if (!update.messageId) view.problems.push(`${update.sessionUpdate} without a messageId`);
  let message = view.messages[id];
  if (!message) {
    message = { id, role, content: [] };
    view.messages[id] = message;
    view.timeline.push(`message:${id}`);
  } else if (message.role !== role) {
    view.problems.push(`message ${id} changed role from ${message.role} to ${role}`);
  }
  appendBlock(message.content, update.content);
  if (update._meta) message.meta = update._meta;
}

/** A card's update: each field given replaces the card's (patch semantics); an unknown card is a problem. */
function toolCallUpdate(view: ViewModel, update: UpdateOf<"tool_call_update">): void {
  const card = view.toolCalls[update.toolCallId];
  if (!card) {
    view.problems.push(`tool_call_update for unknown tool call ${update.toolCallId}`);
    return;
  }
  if (update.title != null) card.title = update.title;
  if (update.kind != null) card.kind = update.kind;
  if (update.status != null) card.status = update.status;
  if (update.rawInput !== undefined) card.rawInput = update.rawInput;
  if (update.rawOutput !== undefined) card.rawOutput = update.rawOutput;
  if (update.locations != null) card.locations = update.locations;
  if (update.content != null) card.content = update.content;
  if (update._meta != null) card.meta = update._meta;
}

/** A compaction's update. Patch semantics: omitted leaves the value, null (or an empty summary) clears it. */
function compactionUpdate(view: ViewModel, update: UpdateOf<"compaction_update">): void {
  const entry = compaction(view, update.compactionId);
  entry.status = update.status;
  if (update.summary !== undefined) entry.summary = update.summary ?? [];
  if (update.error === null) delete entry.error;
  else if (update.error !== undefined) entry.error = update.error;
}

/** Folds one update into the view (mutating it). */
export function reduce(view: ViewModel, update: SessionUpdate): ViewModel {
  switch (update.sessionUpdate) {
    case "user_message_chunk":
    case "agent_message_chunk":
    case "agent_thought_chunk":
      messageChunk(view, update);
      return view;
    case "tool_call": {
      const existing = view.toolCalls[update.toolCallId];
      if (!existing) view.timeline.push(`tool:${update.toolCallId}`);
      view.toolCalls[update.toolCallId] = withDefined({
        toolCallId: update.toolCallId,
        name: update.name ?? undefined,
        title: update.title,
        kind: update.kind ?? "other",
        status: update.status ?? "pending",
        rawInput: update.rawInput,
        rawOutput: update.rawOutput,
        locations: update.locations ?? undefined,
        content: update.content ?? undefined,
        meta: update._meta ?? undefined,
      });
      return view;
    }
    case "tool_call_update":
      toolCallUpdate(view, update);
      return view;
    case "plan":
      view.plan = update.entries;
      return view;
    case "current_mode_update":
      view.modeId = update.currentModeId;
      return view;
    case "config_option_update":
      view.configOptions = update.configOptions;
      return view;
    case "session_info_update":
      if (update.title !== undefined) view.title = update.title;
      if (update.updatedAt !== undefined) view.updatedAt = update.updatedAt;
      return view;
    case "usage_update":
      view.usage = { used: update.used, size: update.size, ...(update.cost ? { cost: update.cost } : {}) };
      return view;
    case "available_commands_update":
      view.commands = update.availableCommands;
      return view;
    case "compaction_update":
      compactionUpdate(view, update);
      return view;
    case "compaction_summary_chunk":
      appendBlock(compaction(view, update.compactionId).summary, update.content);
      return view;
    case "notice":
      view.notices.push({
        severity: update.severity,
        title: update.title,
        ...(update.description != null ? { description: update.description } : {}),
      });
      return view;
    default:
      view.problems.push(`unhandled update ${(update as { sessionUpdate: string }).sessionUpdate}`);
      return view;
  }
}

/**
 * What a client does when a prompt ends `refusal` (ACP: "the user prompt and everything that
 * comes after it won't be included in the next prompt, so this should be reflected in the UI"):
 * the last user message and every entry after it (messages, tool cards, compactions) leave the
 * timeline. Session state (plan, mode, config, title, usage, commands) stays.
 */
export function retractLastPrompt(view: ViewModel): ViewModel {
  const at = view.timeline.findLastIndex(
    (entry) => entry.startsWith("message:") && view.messages[entry.slice(8)]?.role === "user",
  );
  if (at === -1) return view;
  for (const entry of view.timeline.splice(at)) {
    const [kind, id] = [entry.slice(0, entry.indexOf(":")), entry.slice(entry.indexOf(":") + 1)];
    if (kind === "message") delete view.messages[id];
    else if (kind === "tool") delete view.toolCalls[id];
    else if (kind === "compaction") delete view.compactions[id];
  }
  return view;
}

export function fold(updates: Iterable<SessionUpdate>, view: ViewModel = emptyView()): ViewModel {
  for (const update of updates) reduce(view, update);
  return view;
}

/** The compaction with this id; a first-seen id creates one in progress at this point of the timeline. */
function compaction(view: ViewModel, compactionId: string): CompactionView {
  let entry = view.compactions[compactionId];
  if (!entry) {
    entry = { compactionId, status: "in_progress", summary: [] };
    view.compactions[compactionId] = entry;
    view.timeline.push(`compaction:${compactionId}`);
  }
  return entry;
}

function appendBlock(content: ContentBlock[], block: ContentBlock): void {
  const last = content[content.length - 1];
  if (last?.type === "text" && block.type === "text" && mergeable(last) && mergeable(block)) {
    content[content.length - 1] = { ...last, text: last.text + block.text };
  } else {
    content.push(block);
  }
}

/** A text block the next text chunk may join: plain text (a recorded block of another shape stays whole). */
const mergeable = (block: Extract<ContentBlock, { type: "text" }>) =>
  typeof block.text === "string" && block.annotations == null;

function withDefined<T extends Record<string, unknown>>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}
