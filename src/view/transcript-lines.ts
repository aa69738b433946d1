/**
 * How each part of a transcript is drawn, as lines that carry what they are (a style) beside their
 * plain text: a message, a tool card (diffs as unified diffs, command output, the question asked
 * and its answer, the subagent session it started), a compaction, a plan or a mode or model change,
 * and the closing line. Whatever came from content is drawn through `visible`, so no control
 * character from it reaches the terminal. Pure: a terminal adds colour from the style, a file
 * gets the text alone.
 */
import type {
  ContentBlock,
  PermissionOption,
  PlanEntry,
  SessionConfigOption,
  ToolCallContent,
} from "@agentclientprotocol/sdk";
import { turnEndText, type TurnEndMark } from "./turn-end-mark.ts";
import { unifiedDiff } from "./unified-diff.ts";
import type { CompactionView, MessageView, ToolCardView, ViewModel } from "./view-model.ts";
import { visible } from "./visible-text.ts";

/** What a piece of a transcript is; a terminal styles it, plain text ignores it. */
export type Style =
  | "user"
  | "agent"
  | "thought"
  | "notice"
  | "card-completed"
  | "card-failed"
  | "card-open"
  | "question"
  | "subagent"
  | "output"
  | "diff-file"
  | "diff-hunk"
  | "diff-add"
  | "diff-remove"
  | "diff-context"
  | "mark";

/** A piece of a transcript: `text` may be part of a line (a message as it streams) or end with "\n". */
export type Piece = { style: Style; text: string /** The piece that closes a message. */; end?: true };

/** Something shown between messages and cards: a plan as it was then, a mode or model change. */
export type Mark = { at: number } & (
  | { kind: "plan"; entries: PlanEntry[] }
  | { kind: "mode"; modeId: string }
  | { kind: "model"; model: string }
  | ({ kind: "turn-end" } & TurnEndMark)
);

export const modelOf = (options: SessionConfigOption[] | null | undefined): string | undefined => {
  const option = options?.find((o) => o.id === "model");
  return option && "currentValue" in option ? String(option.currentValue) : undefined;
};

const line = (style: Style, text: string): Piece => ({ style, text: `${text}\n` });

const indent = (text: string, prefix: string) =>
  text
    .split("\n")
    .map((l) => prefix + l)
    .join("\n");

export const blockText = (block: ContentBlock): string => visible(rawBlockText(block));

export function rawBlockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource_link":
      return `[${block.name}](${block.uri})`;
    case "resource":
      return `[resource ${block.resource.uri}]`;
    case "image":
      return `[image ${block.mimeType}]`;
    case "audio":
      return `[audio ${block.mimeType}]`;
  }
}

/** A message's style: who speaks, and whether verbatim itself says it (a notice, a hook's message). */
export const messageStyle = (m: MessageView): Style =>
  m.role === "user" ? "user" : m.role === "thought" ? "thought" : m.meta ? "notice" : "agent";

/** What starts each line of a message as drawn: "> " for the user, "  ~ " for thinking. */
export const linePrefix = (m: MessageView): string => (m.role === "user" ? "> " : m.role === "thought" ? "  ~ " : "");

/** What starts a message as drawn: its line prefix, or "! " for what verbatim itself says. */
export const messageStart = (m: MessageView): string => (m.role === "agent" && m.meta ? "! " : linePrefix(m));

/** Raw text of a message drawn: its controls made visible, each new line starting with the prefix. */
export const drawnText = (raw: string, prefix: string): string => {
  const text = visible(raw);
  return prefix ? text.replaceAll("\n", `\n${prefix}`) : text;
};

/** What closes a drawn message: the end of its last line, then an empty line. */
export const MESSAGE_END = "\n\n";

/** A unified diff's lines, each styled by what it is. */
function diffPieces(diff: string, prefix: string): Piece[] {
  return diff.split("\n").map((l) => {
    const style: Style =
      l.startsWith("+++") || l.startsWith("---")
        ? "diff-file"
        : l.startsWith("@@")
          ? "diff-hunk"
          : l.startsWith("+")
            ? "diff-add"
            : l.startsWith("-")
              ? "diff-remove"
              : "diff-context";
    return line(style, prefix + l);
  });
}

function toolContentPieces(content: ToolCallContent, prefix: string): Piece[] {
  switch (content.type) {
    case "content":
      return [line("output", indent(blockText(content.content), prefix))];
    case "diff":
      return diffPieces(visible(unifiedDiff(content.path, content.oldText, content.newText)), prefix);
    case "terminal":
      return [line("output", `${prefix}[terminal ${visible(content.terminalId)}]`)];
  }
}

type PermissionMeta = { options?: PermissionOption[]; outcome?: { outcome: string; optionId?: string } | null };

/** The question a card asked, as a line: its options, and which was chosen (or that none was yet). */
function permissionQuestion(card: ToolCardView): string | undefined {
  const permission = (card.meta?.verbatim as { permission?: PermissionMeta } | undefined)?.permission;
  if (!permission?.options) return undefined;
  const outcome = permission.outcome;
  const options = permission.options.map((o) =>
    visible(outcome?.outcome === "selected" && o.optionId === outcome.optionId ? `[${o.name}]` : o.name),
  );
  const state = !outcome ? " (waiting for an answer)" : outcome.outcome === "cancelled" ? " (cancelled)" : "";
  return `? asked: ${options.join(" | ")}${state}`;
}

type SubagentMeta = { sessionId?: unknown; subagentType?: unknown };

/** The child session a Task card started, as its `subagent_started` record named it. */
function subagentLine(card: ToolCardView): string | undefined {
  const subagent = (card.meta?.verbatim as { subagent?: SubagentMeta } | undefined)?.subagent;
  if (typeof subagent?.sessionId !== "string") return undefined;
  const type = typeof subagent.subagentType === "string" ? ` (${visible(subagent.subagentType)})` : "";
  return `↳ subagent session ${visible(subagent.sessionId)}${type}`;
}

/**
 * A card's label: its ACP kind, but for the plan's tool. ACP has no kind for a plan update, so
 * TodoWrite's card is a `think` (as Claude Code's adapter sends it); what a person reads is "plan".
 */
const cardLabel = (card: ToolCardView): string => (card.name === "TodoWrite" ? "plan" : visible(card.kind));

const cardStyle = (status: string): Style =>
  status === "completed" ? "card-completed" : status === "failed" ? "card-failed" : "card-open";

/** A tool card: its head line, the subagent it started, the question it asked, then its content. */
export function cardPieces(card: ToolCardView): Piece[] {
  const where = card.locations?.length
    ? ` @ ${card.locations.map((l) => `${visible(l.path)}${l.line ? `:${l.line}` : ""}`).join(", ")}`
    : "";
  const subagent = subagentLine(card);
  const question = permissionQuestion(card);
  return [
    line(cardStyle(card.status), `[${cardLabel(card)}] ${visible(card.title)} — ${visible(card.status)}${where}`),
    ...(subagent ? [line("subagent", `    ${subagent}`)] : []),
    ...(question ? [line("question", `    ${question}`)] : []),
    ...(card.content ?? []).flatMap((item) => toolContentPieces(item, "    ")),
    line("output", ""),
  ];
}

export function compactionPieces(c: CompactionView): Piece[] {
  return [
    line("mark", `[compaction] ${visible(c.status)}${c.error ? `: ${visible(c.error)}` : ""}`),
    line("output", indent(c.summary.map(blockText).join(""), "    ")),
    line("output", ""),
  ];
}

export const planPieces = (entries: PlanEntry[]): Piece[] => [
  line("mark", "Plan:"),
  ...entries.map((e) =>
    line(
      "mark",
      `  [${e.status === "completed" ? "x" : e.status === "in_progress" ? "~" : " "}] ${visible(e.content)}`,
    ),
  ),
  line("mark", ""),
];

export function markPieces(mark: Mark): Piece[] {
  switch (mark.kind) {
    case "plan":
      return planPieces(mark.entries);
    case "mode":
      return [line("mark", `(mode: ${visible(mark.modeId)})`), line("mark", "")];
    case "model":
      return [line("mark", `(model: ${visible(mark.model)})`), line("mark", "")];
    case "turn-end":
      return [line(mark.ending === "cancelled" ? "mark" : "notice", turnEndText(mark)), line("mark", "")];
  }
}

/** The line that closes a transcript: the session's mode and how full its context is, when known. */
export function closingPieces(view: ViewModel): Piece[] {
  const facts = [
    view.modeId ? `mode ${visible(view.modeId)}` : "",
    view.usage ? `context ${view.usage.used}/${view.usage.size} tokens` : "",
  ].filter(Boolean);
  return facts.length ? [line("mark", `(${facts.join(", ")})`)] : [];
}

/** The header `show` draws above a reopened transcript: the session's title. */
export const titlePieces = (view: ViewModel): Piece[] =>
  view.title ? [line("mark", `# ${visible(view.title)}`), line("mark", "")] : [];
