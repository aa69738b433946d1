/**
 * The session state after a finished turn, as the replay cache keeps it: what the next record's
 * projection needs (the projector's cards, hook outcomes and compactions) and what the restored
 * session continues from (the state fold, the next sequence number), in parts, so that a turn's
 * end rewrites only what the turn changed. A load restores them instead of folding every earlier
 * fact. The model's conversation is not kept: a restored session folds it from the facts when it
 * first needs it (its next prompt). Pure.
 */
import type { Fact } from "../journal/facts/index.ts";
import { isSettled, type Card } from "./card.ts";
import { cardJson, parseCard } from "./card-table.ts";
import type { Shown } from "./hook-outcomes.ts";
import type { Projector } from "./project.ts";
import type { SessionStateFold } from "./state.ts";
import { restoreFold, snapshotFold } from "./fold-snapshot.ts";

/** One part of the state: `head` (the fold and the covered range), `card:ID`, `hook:ID` or `compaction:ID`. */
export type StatePart = {
  part: string;
  /** Restoring order: a card's is the record that first announced it (cards replay in that order). */
  ord: number;
  body: string;
};

/** A card's part name. */
export const cardPart = (toolCallId: string): string => `card:${toolCallId}`;

export type StateHead = {
  /** The last record the state has folded (a turn's `turn_ended`). */
  toSeq: number;
  /** The SessionStateFold, as snapshotFold writes it (fold-snapshot.ts). */
  fold: string;
  /** The cards not settled (restored parsed; the others stay text until a fact touches them). */
  unsettled: string[];
};

/** What a record may change of the projector's state: the parts to write again at the turn's end. */
export type Touched = { cards: Set<string>; outcomes: Set<string>; compactions: Set<string> };

export const nothingTouched = (): Touched => ({ cards: new Set(), outcomes: new Set(), compactions: new Set() });

/** Notes what `fact` may change (every id the projector keys state by). */
export function noteTouched(touched: Touched, fact: Fact): void {
  if ("toolCallId" in fact && typeof fact.toolCallId === "string") touched.cards.add(fact.toolCallId);
  if (fact.kind === "session_recovered") for (const c of fact.calls) touched.cards.add(c.toolCallId);
  if (fact.kind === "hook_outcome") touched.outcomes.add(fact.outcomeId);
  if (fact.kind === "compaction_started" || fact.kind === "compaction_chunk" || fact.kind === "compaction_ended")
    touched.compactions.add(fact.compactionId);
}

type ShownJson = Omit<Shown, "card"> & { card: "none" | "table" | string };

/**
 * The parts to write at a turn's end: the head, then each card, outcome and compaction `touched`
 * names. `announcedAt` gives a new card's restoring order.
 */
export function stateParts(
  projector: Projector,
  fold: SessionStateFold,
  toSeq: number,
  touched: Touched,
  announcedAt: (toolCallId: string) => number,
): StatePart[] {
  const { cards, hooks, compactions } = projector.folded;
  const unsettled: string[] = [];
  for (const card of cards.parsed()) if (!isSettled(card)) unsettled.push(card.toolCallId);
  const head: StateHead = { toSeq, fold: snapshotFold(fold), unsettled };
  const parts: StatePart[] = [{ part: "head", ord: 0, body: JSON.stringify(head) }];
  for (const id of touched.cards) {
    const card = cards.get(id);
    if (card) parts.push({ part: cardPart(id), ord: announcedAt(id), body: cardJson(card) });
  }
  for (const id of touched.outcomes) {
    const shown = hooks.shown.get(id);
    if (!shown) continue;
    const ref = !shown.card ? "none" : cards.get(shown.card.toolCallId) === shown.card ? "table" : cardJson(shown.card);
    const json: ShownJson = { ...shown, card: ref };
    parts.push({ part: `hook:${id}`, ord: 0, body: JSON.stringify(json) });
  }
  for (const id of touched.compactions) {
    const entry = compactions.get(id);
    if (entry) parts.push({ part: `compaction:${id}`, ord: 0, body: JSON.stringify(entry) });
  }
  return parts;
}

/** Every part of the state as it stands (for a check against what is stored). */
export function allStateParts(
  projector: Projector,
  fold: SessionStateFold,
  toSeq: number,
  announcedAt: (toolCallId: string) => number,
): StatePart[] {
  const { cards, hooks, compactions } = projector.folded;
  const touched: Touched = {
    cards: new Set(cards.ids()),
    outcomes: new Set(hooks.shown.keys()),
    compactions: new Set(compactions.keys()),
  };
  return stateParts(projector, fold, toSeq, touched, announcedAt);
}

/** The head among stored parts, parsed. */
export function stateHead(parts: readonly StatePart[]): StateHead | undefined {
  const head = parts.find((p) => p.part === "head");
  return head ? (JSON.parse(head.body) as StateHead) : undefined;
}

/** The parts a load restores before it answers: the head, and the cards of the calls still open. */
export const openingPartNames = (head: StateHead): string[] => ["head", ...head.unsettled.map(cardPart)];

/**
 * Restores a fresh projector (and fold, if given) to the stored parts, cards in `ord` order as
 * given. Settled cards stay text until a fact touches them.
 */
export function restoreState(
  parts: readonly StatePart[],
  head: StateHead,
  projector: Projector,
  fold?: SessionStateFold,
): void {
  restoreOpening(parts, head, projector, fold);
  restoreRest(parts, projector);
}

/**
 * The first step of restoreState: the fold (if given) and the cards of the calls still open,
 * parsed; enough for what a load sends at its end (the interruption marks of open calls). Before
 * any fact is projected, restoreRest must have completed the projector.
 */
export function restoreOpening(
  parts: readonly StatePart[],
  head: StateHead,
  projector: Projector,
  fold?: SessionStateFold,
): void {
  if (fold) restoreFold(fold, head.fold);
  const unsettled = new Set(head.unsettled);
  const { cards } = projector.folded;
  for (const p of parts) {
    if (!p.part.startsWith("card:")) continue;
    const id = p.part.slice(5);
    if (unsettled.has(id)) cards.set(id, parseCard(p.body));
  }
}

/**
 * The second step: every other card (as text, in the order shown; the open calls' cards restored
 * by the first step stay the objects they are), the hook outcomes and the compactions.
 */
export function restoreRest(parts: readonly StatePart[], projector: Projector): void {
  const { cards, hooks, compactions } = projector.folded;
  const entries: [string, string][] = [];
  for (const p of parts) if (p.part.startsWith("card:")) entries.push([p.part.slice(5), p.body]);
  cards.refill(entries);
  for (const p of parts) {
    if (p.part.startsWith("hook:")) {
      const json = JSON.parse(p.body) as ShownJson;
      const card: Card | undefined =
        json.card === "none"
          ? undefined
          : json.card === "table"
            ? cards.get(json.toolCallId ?? "")
            : parseCard(json.card);
      hooks.shown.set(p.part.slice(5), { ...json, card });
    } else if (p.part.startsWith("compaction:")) {
      compactions.set(p.part.slice(11), JSON.parse(p.body));
    }
  }
}

/**
 * Sets `target`'s cards, hook outcomes and compactions to `source`'s (a projector that replayed
 * the facts): for a restored state whose rest could not be used. The cards are `source`'s objects.
 */
export function adoptFolded(target: Projector, source: Projector): void {
  const to = target.folded;
  const from = source.folded;
  to.cards.adopt(from.cards);
  to.hooks.shown.clear();
  for (const [id, shown] of from.hooks.shown) to.hooks.shown.set(id, shown);
  to.compactions.clear();
  for (const [id, entry] of from.compactions) to.compactions.set(id, entry);
}
