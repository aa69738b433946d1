/**
 * A rewind's file restore as its card (journal/facts/restore.ts): the files it puts back with
 * their diffs, those it leaves alone with why, then what it did. The card is the user's only: the
 * model's conversation never sees it. Pure.
 */
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { textContent } from "../journal/facts/display-shapes.ts";
import type { FactOf, FilesRestored } from "../journal/facts/index.ts";
import type { Card } from "./card.ts";

/** The name a restore card carries (it is no tool the model has). */
export const RESTORE_CARD_NAME = "RestoreFiles";

/** What the card keeps under `_meta.verbatim.restore`. */
export type RestoreMeta = {
  files: { path: string; action: "restore" | "remove" }[];
  leftAlone: { path: string; reason: string }[];
  commandsRun: number;
  toMessageId?: string;
  done?: FilesRestored;
};

/** The card as planned: pending, its diffs shown before anything is asked or changed. */
export function plannedCard(fact: FactOf<"files_restore_planned">): Card {
  const files = fact.files.map((f) => ({
    path: f.path,
    action: f.to === null ? ("remove" as const) : ("restore" as const),
  }));
  const restore: RestoreMeta = {
    files,
    leftAlone: fact.leftAlone,
    commandsRun: fact.commandsRun,
    ...(fact.toMessageId ? { toMessageId: fact.toMessageId } : {}),
  };
  return {
    toolCallId: fact.restoreId,
    title: fact.files.length === 0 ? "Restore files: none to restore" : `Restore ${count(fact.files.length, "file")}`,
    kind: "edit",
    rawInput: { files },
    locations: fact.files.map((f) => ({ path: f.path })),
    status: "pending",
    started: false,
    body: [
      ...fact.files.map((f): ToolCallContent => ({ type: "diff", path: f.path, oldText: f.from, newText: f.to ?? "" })),
      ...plannedLines(fact),
    ],
    notes: [],
    meta: { restore },
  };
}

function plannedLines(fact: FactOf<"files_restore_planned">): ToolCallContent[] {
  const removed = fact.files.filter((f) => f.to === null).map((f) => f.path);
  return [
    ...(removed.length > 0
      ? [textContent(`Removes ${removed.join(", ")} (verbatim created it after that point).`)]
      : []),
    ...fact.leftAlone.map((f) => textContent(`Leaves ${f.path} alone: ${f.reason}.`)),
    textContent(commandsLine(fact.commandsRun)),
  ];
}

/** The line the card ends with. */
export function endedLine(fact: FactOf<"files_restore_ended">): string {
  if (fact.outcome === "refused") return `Not restored: ${fact.reason ?? "refused"}. No file was changed.`;
  return restoredText(fact.files);
}

/** What a restore did, in words. */
export function restoredText(files: FilesRestored): string {
  const parts = [
    files.restored.length > 0 ? `restored ${files.restored.join(", ")}` : "",
    files.removed.length > 0 ? `removed ${files.removed.join(", ")} (created after that point)` : "",
    ...files.leftAlone.map((f) => `left ${f.path} alone (${f.reason})`),
  ].filter((p) => p !== "");
  const edits = parts.length === 0 ? "No file verbatim edited after that point." : `Files: ${parts.join("; ")}.`;
  return `${edits} ${commandsLine(files.commandsRun)}`;
}

function commandsLine(commandsRun: number): string {
  return commandsRun === 0
    ? "No command ran after that point."
    : `${count(commandsRun, "command")} ran after that point: what ${commandsRun === 1 ? "it" : "they"} changed is not undone.`;
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
