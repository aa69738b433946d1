/**
 * The one replay of a stored session, used by `session/load` and by `verbatim show`: each record
 * through the session's projector (the same fold the live path used), then what a replay
 * changes, composed once in this order: a retracted turn's entries, and those of records a rewind
 * took back, are left out (RetractedTurns), consecutive chunks of one message are merged (ChunkCoalescer), and at the
 * end calls a dead process left open are marked interrupted. docs/acp-language.md lists these
 * differences from live. Pure: no I/O, no clock, no tool code.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { RetractedRange, StoredFact } from "../journal/facts/index.ts";
import { ChunkCoalescer } from "./coalesce.ts";
import type { Projector } from "./project.ts";
import { RetractedTurns } from "./retracted-turns.ts";
import { turnEndUpdate } from "./turn-end.ts";

/** Nothing to send: shared, as most records of a long replay are held or merged. */
const NOTHING: readonly SessionUpdate[] = Object.freeze([]);

export class ReplayPipeline {
  readonly #turns: RetractedTurns;
  readonly #coalescer = new ChunkCoalescer();

  /**
   * `projector` must be in replay mode (`context.replay`) and have seen no record yet; `rewound`:
   * the runs of records the session's rewinds took back (replay/retraction.ts).
   */
  constructor(
    readonly projector: Projector,
    rewound: readonly RetractedRange[] = [],
  ) {
    this.#turns = new RetractedTurns(rewound);
  }

  /** Folds one stored record, in journal order; returns the updates to send now, in order. */
  push(record: StoredFact): readonly SessionUpdate[] {
    const released = this.#turns.push(record.fact, this.projector.apply(record), record.seq);
    // Merging never crosses a turn's end: what a finished turn replays as depends only on the
    // records up to its end (what the replay cache stores, see replay-segments.ts).
    if (record.fact.kind === "turn_ended") return [...this.#merged(released), ...this.#coalescer.flush()];
    return this.#merged(released);
  }

  #merged(released: readonly SessionUpdate[]): readonly SessionUpdate[] {
    if (released.length === 0) return NOTHING;
    if (released.length === 1) return this.#coalescer.push(released[0] as SessionUpdate);
    const ready: SessionUpdate[] = [];
    for (const update of released) ready.push(...this.#coalescer.push(update));
    return ready;
  }

  /**
   * Ends the replay: returns what is still held (a turn with no recorded end is shown as it
   * was), then, when `markInterrupted` (no live process other than the caller holds the
   * session), one update per call still open and the end of the turn left open (turn-end.ts). The projector then projects live facts.
   */
  end(markInterrupted: boolean): SessionUpdate[] {
    const ready: SessionUpdate[] = [];
    const openTurn = this.#turns.openTurn;
    for (const update of this.#turns.flush()) ready.push(...this.#coalescer.push(update));
    ready.push(...this.#coalescer.flush());
    if (markInterrupted) {
      ready.push(...this.projector.interruptionMarks().filter((m) => this.#turns.shows(m)));
      if (openTurn) ready.push(turnEndUpdate({ turnId: openTurn, ending: "interrupted" }));
    }
    this.projector.context.replay = false;
    return ready;
  }
}

/** Every update a replay of `records` sends, in order (see ReplayPipeline). */
export function replayAll(
  projector: Projector,
  records: Iterable<StoredFact>,
  markInterrupted: boolean,
  rewound: readonly RetractedRange[] = [],
): SessionUpdate[] {
  const pipeline = new ReplayPipeline(projector, rewound);
  const updates: SessionUpdate[] = [];
  for (const record of records) updates.push(...pipeline.push(record));
  updates.push(...pipeline.end(markInterrupted));
  return updates;
}
