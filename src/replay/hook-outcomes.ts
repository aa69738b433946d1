/**
 * Showing hook outcomes. An outcome tied to a call of this session that has a card is shown on
 * that card: a visible line and an entry of `_meta.verbatim.hooks`, replaced in place when a
 * higher revision of the outcome arrives. An outcome tied to no call, to a call with no card, or
 * to a call of another session is shown as a message of its own (`agent_message_chunk` with the
 * record's `messageId` and `_meta.verbatim.hook`): never attached by guesswork. A record that
 * would roll an outcome back (a lower revision) or contradict it (same revision, other content,
 * another call or session) never overwrites it: it is shown apart, as evidence.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { textContent } from "../journal/facts/display-shapes.ts";
import type { FactOf } from "../journal/facts/index.ts";
import { contentAndMetaUpdate, type Card } from "./card.ts";
import { hookOutcomeLine } from "./hook-lines.ts";

type Outcome = FactOf<"hook_outcome">;

/** What a client is shown of an outcome under `_meta.verbatim` (the model's context stays private). */
export type HookOutcomeMeta = Omit<Outcome, "kind" | "messageId" | "modelContext">;

/** What is known of one outcome shown (exported for the replay cache's snapshot, replay-state.ts). */
export type Shown = {
  revision: number;
  content: string;
  toolCallId: string | undefined;
  originSessionId: string;
  card: Card | undefined;
};

export class HookOutcomeProjection {
  readonly #shown = new Map<string, Shown>();

  /**
   * @param sessionId the session being projected, when known: outcomes from another session
   *   never attach to its cards.
   */
  apply(
    fact: Outcome,
    cards: { get(toolCallId: string): Card | undefined },
    sessionId: string | undefined,
  ): SessionUpdate[] {
    const content = JSON.stringify(metaOf(fact));
    const known = this.#shown.get(fact.outcomeId);
    if (!known) {
      const card =
        fact.toolCallId !== undefined && (sessionId === undefined || fact.originSessionId === sessionId)
          ? cards.get(fact.toolCallId)
          : undefined;
      this.#shown.set(fact.outcomeId, {
        revision: fact.revision,
        content,
        toolCallId: fact.toolCallId,
        originSessionId: fact.originSessionId,
        card,
      });
      return card ? [onCard(card, fact)] : standalone(fact);
    }
    if (fact.revision === known.revision && content === known.content) return [];
    const conflict = evidenceReason(fact, known);
    if (conflict) return [evidence(fact, conflict)];
    known.revision = fact.revision;
    known.content = content;
    return known.card ? [onCard(known.card, fact)] : standalone(fact);
  }

  /** The outcomes shown so far, by outcome id (live, not a copy). */
  get shown(): Map<string, Shown> {
    return this.#shown;
  }
}

function evidenceReason(fact: Outcome, known: Shown): string | undefined {
  if (fact.toolCallId !== known.toolCallId)
    return `it names call ${fact.toolCallId ?? "(none)"}, but the outcome belongs to call ${known.toolCallId ?? "(none)"}`;
  if (fact.originSessionId !== known.originSessionId)
    return `it comes from session ${fact.originSessionId}, but the outcome comes from session ${known.originSessionId}`;
  if (fact.revision < known.revision)
    return `revision ${fact.revision} is older than revision ${known.revision}, already shown`;
  if (fact.revision === known.revision) return `revision ${fact.revision} was already shown with other content`;
  return undefined;
}

function metaOf(fact: Outcome): HookOutcomeMeta {
  const { kind: _kind, messageId: _messageId, modelContext: _modelContext, ...meta } = fact;
  return meta;
}

function onCard(card: Card, fact: Outcome): SessionUpdate {
  const line = textContent(hookOutcomeLine(fact));
  const lines = (card.hookLines ??= new Map());
  const at = lines.get(fact.outcomeId);
  if (at === undefined) {
    lines.set(fact.outcomeId, card.notes.length);
    card.notes = [...card.notes, line];
  } else {
    card.notes = card.notes.map((note, i) => (i === at ? line : note));
  }
  const hooks = (card.meta.hooks as HookOutcomeMeta[] | undefined) ?? [];
  const meta = metaOf(fact);
  const index = hooks.findIndex((h) => h.outcomeId === fact.outcomeId);
  card.meta = { ...card.meta, hooks: index === -1 ? [...hooks, meta] : hooks.map((h, i) => (i === index ? meta : h)) };
  return contentAndMetaUpdate(card);
}

/** An outcome of its own is shown once it has settled (a running one has nothing to say yet). */
function standalone(fact: Outcome): SessionUpdate[] {
  if (fact.status === "running") return [];
  return [
    {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: hookOutcomeLine(fact) },
      messageId: fact.messageId,
      _meta: { verbatim: { hook: metaOf(fact) } },
    },
  ];
}

function evidence(fact: Outcome, reason: string): SessionUpdate {
  return {
    sessionUpdate: "agent_message_chunk",
    content: {
      type: "text",
      text: `Hook ${fact.event}: an update of outcome ${fact.outcomeId} was not applied (${reason}).`,
    },
    messageId: fact.messageId,
    _meta: { verbatim: { hook: metaOf(fact), notApplied: reason } },
  };
}
