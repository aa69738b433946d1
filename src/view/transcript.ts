/**
 * A readable transcript of what a client shows, as plain text: messages, thinking, tool cards
 * (diffs as unified diffs, command output, the permission question and its answer), and plans
 * and mode changes where they happened. Whatever came from content (text, titles, paths, diffs,
 * command output, option names) is drawn through `visible`, so no control character from it
 * reaches the terminal.
 */
import type {
  ContentBlock,
  PermissionOption,
  PlanEntry,
  SessionConfigOption,
  SessionUpdate,
  ToolCallContent,
} from "@agentclientprotocol/sdk";
import { unifiedDiff } from "./unified-diff.ts";
import { visible } from "./visible-text.ts";
import { emptyView, reduce, type ToolCardView, type ViewModel } from "./view-model.ts";

/** Something shown between messages and cards: a plan as it was then, a mode or model change. */
export type Mark = { at: number } & (
  | { kind: "plan"; entries: PlanEntry[] }
  | { kind: "mode"; modeId: string }
  | { kind: "model"; model: string }
);

const modelOf = (options: SessionConfigOption[] | undefined): string | undefined => {
  const option = options?.find((o) => o.id === "model");
  return option && "currentValue" in option ? String(option.currentValue) : undefined;
};

/**
 * Folds updates into a client's view and also remembers where in the timeline each plan, mode
 * change and model change arrived, which the view model (the latest value only) does not keep.
 * A session's first fact shows no config, so the model before the first change is unknown: the
 * first config update marks its model unless it came with a mode change (which is marked as one).
 */
export class TranscriptRecorder {
  readonly view: ViewModel = emptyView();
  readonly marks: Mark[] = [];
  #model: string | undefined;
  #afterModeChange = false;

  apply(update: SessionUpdate): void {
    const at = this.view.timeline.length;
    if (update.sessionUpdate === "plan") this.marks.push({ at, kind: "plan", entries: update.entries });
    if (update.sessionUpdate === "current_mode_update")
      this.marks.push({ at, kind: "mode", modeId: update.currentModeId });
    if (update.sessionUpdate === "config_option_update") {
      const model = modelOf(update.configOptions);
      const changed = this.#model === undefined ? !this.#afterModeChange : model !== this.#model;
      if (model !== undefined && changed) this.marks.push({ at, kind: "model", model });
      if (model !== undefined) this.#model = model;
    }
    this.#afterModeChange = update.sessionUpdate === "current_mode_update";
    reduce(this.view, update);
  }

  render(): string {
    return renderTranscript(this.view, this.marks);
  }
}

const indent = (text: string, prefix: string) =>
  text
    .split("\n")
    .map((l) => prefix + l)
    .join("\n");

const blockText = (block: ContentBlock): string => visible(rawBlockText(block));

function rawBlockText(block: ContentBlock): string {
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

function toolContentText(content: ToolCallContent): string {
  switch (content.type) {
    case "content":
      return blockText(content.content);
    case "diff":
      return visible(unifiedDiff(content.path, content.oldText, content.newText));
    case "terminal":
      return `[terminal ${visible(content.terminalId)}]`;
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

const planLines = (entries: PlanEntry[]) => [
  "Plan:",
  ...entries.map(
    (e) => `  [${e.status === "completed" ? "x" : e.status === "in_progress" ? "~" : " "}] ${visible(e.content)}`,
  ),
  "",
];

function markLines(mark: Mark): string[] {
  switch (mark.kind) {
    case "plan":
      return planLines(mark.entries);
    case "mode":
      return [`(mode: ${visible(mark.modeId)})`, ""];
    case "model":
      return [`(model: ${visible(mark.model)})`, ""];
  }
}

function cardLines(card: ToolCardView): string[] {
  const where = card.locations?.length
    ? ` @ ${card.locations.map((l) => `${visible(l.path)}${l.line ? `:${l.line}` : ""}`).join(", ")}`
    : "";
  const question = permissionQuestion(card);
  return [
    `[${visible(card.kind)}] ${visible(card.title)} — ${visible(card.status)}${where}`,
    ...(question ? [indent(question, "    ")] : []),
    ...(card.content ?? []).map((item) => indent(toolContentText(item), "    ")),
    "",
  ];
}

/**
 * The transcript of a view. With `marks` (from a TranscriptRecorder), plans and mode changes are
 * drawn where they happened; without, the latest plan closes the transcript.
 */
export function renderTranscript(view: ViewModel, marks?: Mark[]): string {
  const out: string[] = [];
  if (view.title) out.push(`# ${visible(view.title)}`, "");
  const marksAt = (index: number) => (marks ?? []).filter((m) => m.at === index).flatMap(markLines);
  view.timeline.forEach((key, index) => {
    out.push(...marksAt(index));
    const [kind, ...rest] = key.split(":");
    const id = rest.join(":");
    if (kind === "message") {
      const m = view.messages[id];
      if (!m) return;
      const text = m.content.map(blockText).join("");
      if (m.role === "user") out.push(indent(text, "> "), "");
      else if (m.role === "thought") out.push(indent(text, "  ~ "), "");
      else out.push(m.meta ? `! ${text}` : text, "");
    } else if (kind === "compaction") {
      const c = view.compactions[id];
      if (!c) return;
      out.push(
        `[compaction] ${visible(c.status)}${c.error ? `: ${visible(c.error)}` : ""}`,
        indent(c.summary.map(blockText).join(""), "    "),
        "",
      );
    } else {
      const card = view.toolCalls[id];
      if (card) out.push(...cardLines(card));
    }
  });
  out.push(...marksAt(view.timeline.length));
  if (!marks && view.plan) out.push(...planLines(view.plan));
  const facts = [
    view.modeId ? `mode ${visible(view.modeId)}` : "",
    view.usage ? `context ${view.usage.used}/${view.usage.size} tokens` : "",
  ].filter(Boolean);
  if (facts.length) out.push(`(${facts.join(", ")})`);
  return out.join("\n");
}
