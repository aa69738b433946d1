/** Reading tool cards in a test: their text, their permission and outcome under `_meta.verbatim`. */
import type { SessionNotification, ToolCallContent } from "@agentclientprotocol/sdk";
import type { ToolCardView } from "../../src/view/view-model.ts";

type Verbatim = {
  permission?: { requestId: string; options: { optionId: string; name: string; kind: string }[]; outcome: unknown };
  outcome?: { by: string; reason: string };
  interrupted?: { mayHaveRun: boolean };
};

const verbatim = (card: Pick<ToolCardView, "meta"> | undefined) => card?.meta?.verbatim as Verbatim | undefined;

/** The text of a card's plain text content, joined by newlines. */
export const textOf = (content: ToolCallContent[] | undefined) =>
  (content ?? []).map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : "")).join("\n");

export const permissionOf = (card: Pick<ToolCardView, "meta"> | undefined) => verbatim(card)?.permission;
export const outcomeOf = (card: Pick<ToolCardView, "meta"> | undefined) => verbatim(card)?.outcome;
export const interruptedOf = (card: Pick<ToolCardView, "meta"> | undefined) => verbatim(card)?.interrupted;

/** The `tool_call` and `tool_call_update` updates of one call, in order. */
export const updatesFor = (ns: SessionNotification[], toolCallId: string) =>
  ns
    .map((n) => n.update)
    .filter(
      (u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === toolCallId,
    );
