/**
 * A card as it is announced: a model's tool call (`tool_call_announced`) or a rewind's file
 * restore (`files_restore_planned`), with the `tool_call` update that shows it. Pure.
 */
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { FactOf } from "../journal/facts/index.ts";
import { cardMeta, type Card } from "./card.ts";
import { plannedCard, RESTORE_CARD_NAME } from "./restore-card.ts";

type Announced = { card: Card; update: SessionUpdate };

/** A tool call's card; `body` is its content as this projection shows it. */
export function announcedCall(fact: FactOf<"tool_call_announced">, body: ToolCallContent[]): Announced {
  const card: Card = {
    toolCallId: fact.toolCallId,
    title: fact.title,
    kind: fact.toolKind,
    rawInput: fact.rawInput,
    locations: fact.locations,
    status: "pending",
    started: false,
    body,
    notes: [],
    meta: {},
  };
  const update: SessionUpdate = {
    sessionUpdate: "tool_call",
    toolCallId: card.toolCallId,
    name: fact.name,
    title: card.title,
    kind: fact.toolKind,
    status: "pending",
    rawInput: card.rawInput,
    locations: card.locations,
    content: card.body,
  };
  return { card, update };
}

/** A file restore's card, as planned. */
export function announcedRestore(fact: FactOf<"files_restore_planned">): Announced {
  const card = plannedCard(fact);
  const update: SessionUpdate = {
    sessionUpdate: "tool_call",
    toolCallId: card.toolCallId,
    name: RESTORE_CARD_NAME,
    title: card.title,
    kind: card.kind,
    status: "pending",
    rawInput: card.rawInput,
    locations: card.locations,
    content: card.body,
    _meta: cardMeta(card),
  };
  return { card, update };
}
