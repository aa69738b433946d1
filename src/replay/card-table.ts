/**
 * A projector's tool cards, in the order they were first shown. A card restored from the replay
 * cache may stay unparsed (its JSON text) until a fact touches it: only settled cards are kept so
 * (see replay-state.ts), and nothing reads a settled card but a later fact about its call, so a
 * load of a long session parses the cards of the calls still open and no others.
 */
import type { Card } from "./card.ts";

export class CardTable {
  readonly #entries = new Map<string, Card | string>();

  get(toolCallId: string): Card | undefined {
    const entry = this.#entries.get(toolCallId);
    if (typeof entry !== "string") return entry;
    const card = parseCard(entry);
    this.#entries.set(toolCallId, card);
    return card;
  }

  set(toolCallId: string, card: Card): void {
    this.#entries.set(toolCallId, card);
  }

  /** Keeps a settled card as its JSON text (cardJson's), parsed when first asked for. */
  setSettledText(toolCallId: string, text: string): void {
    this.#entries.set(toolCallId, text);
  }

  /**
   * Refills the table in the order of `entries` (id, settled text): a card already here stays the
   * object it is (others may hold it); the others are kept as their text. A card here that
   * `entries` leaves out stays, after them.
   */
  refill(entries: Iterable<readonly [string, string]>): void {
    const before = new Map(this.#entries);
    this.#entries.clear();
    for (const [id, text] of entries) {
      this.#entries.set(id, before.get(id) ?? text);
      before.delete(id);
    }
    for (const [id, entry] of before) this.#entries.set(id, entry);
  }

  /** Makes this table hold `other`'s entries, in its order (the same card objects). */
  adopt(other: CardTable): void {
    this.#entries.clear();
    for (const [id, entry] of other.#entries) this.#entries.set(id, entry);
  }

  /** The cards parsed so far, in order: every card not settled is among them. */
  *parsed(): IterableIterator<Card> {
    for (const entry of this.#entries.values()) if (typeof entry !== "string") yield entry;
  }

  /** Every card's id, in the order the cards were first shown. */
  ids(): IterableIterator<string> {
    return this.#entries.keys();
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** A card as JSON text (its hook line positions as entries). */
export function cardJson(card: Card): string {
  return JSON.stringify(card.hookLines ? { ...card, hookLines: [...card.hookLines] } : card);
}

export function parseCard(text: string): Card {
  const card = JSON.parse(text) as Omit<Card, "hookLines"> & { hookLines?: [string, number][] | Map<string, number> };
  // Assigned in place, so that the card's keys keep their order (cardJson of it is the same text).
  if (Array.isArray(card.hookLines)) card.hookLines = new Map(card.hookLines);
  return card as Card;
}
