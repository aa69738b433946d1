/**
 * The replay cache's rows, computed from records: each finished turn's lines, exactly as a load
 * replaying the facts writes them, under the key of the projection's version and the client's
 * capabilities (cache-key.ts). Pure.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { StoredFact } from "../journal/facts/index.ts";
import type { ReplayCacheKey, ReplayCacheRow } from "../journal/replay-cache.ts";
import { Projector } from "./project.ts";
import { ReplayPipeline } from "./replay-pipeline.ts";
import {
  allStateParts,
  noteTouched,
  nothingTouched,
  restoreState,
  stateParts,
  type StateHead,
  type StatePart,
} from "./replay-state.ts";
import { cacheKey, type ReplayCapabilities } from "./cache-key.ts";
import { SessionStateFold } from "./state.ts";
import type { Retraction } from "./retraction.ts";

/** A replay cache row before its checksum (added where it is stored: replayCacheChecksum). */
export type ReplaySegment = Omit<ReplayCacheRow, "checksum">;

/** What a finished turn stores: its row, and the parts of the state it changed (see replay-state.ts). */
export type TurnCache = { row: ReplaySegment; parts: StatePart[] };

/** One `session/update` notification as the agent writes it to stdout (the SDK's JSON-RPC message, one line). */
export function updateLine(sessionId: string, update: SessionUpdate): string {
  return `${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update } })}\n`;
}

/**
 * Feeds a session's records in order from record 1 (or from a stored state, `resume`); yields a
 * turn's row and changed state parts at each turn's end.
 */
export class ReplaySegments {
  readonly projector: Projector;
  readonly fold = new SessionStateFold();
  readonly #pipeline: ReplayPipeline;
  readonly #key: ReplayCacheKey;
  #fromSeq = 1;
  #lines = "";
  #touched = nothingTouched();
  /** The record that first announced each card seen here (a resumed run's earlier cards have theirs stored). */
  readonly #announced = new Map<string, number>();
  /** The record the next `push` must be. */
  nextSeq = 1;

  /** `retraction`: what the session's last rewind took back (replay/retraction.ts), if it has one. */
  constructor(
    readonly sessionId: string,
    capabilities: ReplayCapabilities,
    retraction?: Retraction,
  ) {
    this.projector = new Projector({ ...capabilities, replay: true, sessionId });
    this.#pipeline = new ReplayPipeline(this.projector, retraction?.ranges);
    this.#key = cacheKey(capabilities, retraction?.rewoundAt);
  }

  /** Continues from a stored state (the parts of a head that `push` would have reached at `head.toSeq`). */
  resume(parts: readonly StatePart[], head: StateHead): void {
    restoreState(parts, head, this.projector, this.fold);
    this.#fromSeq = this.nextSeq = head.toSeq + 1;
  }

  /** The row ending at this record if it ends a turn. Records must come in order, none skipped. */
  push(record: StoredFact): TurnCache | undefined {
    this.nextSeq = record.seq + 1;
    const { fact } = record;
    noteTouched(this.#touched, fact);
    if (fact.kind === "tool_call_announced" && !this.projector.card(fact.toolCallId))
      this.#announced.set(fact.toolCallId, record.seq);
    for (const update of this.#pipeline.push(record)) this.#lines += updateLine(this.sessionId, update);
    this.fold.apply(fact, record.seq);
    if (fact.kind !== "turn_ended") return undefined;
    const row = { ...this.#key, fromSeq: this.#fromSeq, toSeq: record.seq, lines: this.#lines };
    const parts = stateParts(this.projector, this.fold, record.seq, this.#touched, this.#announcedAt);
    this.#fromSeq = record.seq + 1;
    this.#lines = "";
    this.#touched = nothingTouched();
    return { row, parts };
  }

  /** Every part of the state now (after a turn's end): what a store's parts must equal. Only for a run from record 1. */
  allParts(): StatePart[] {
    return allStateParts(this.projector, this.fold, this.nextSeq - 1, this.#announcedAt);
  }

  readonly #announcedAt = (toolCallId: string): number => this.#announced.get(toolCallId) ?? 0;
}

/** What the writer stores for a session's records from record 1: every finished turn's row, and the state parts as they stand last. */
export async function cacheOf(
  sessionId: string,
  capabilities: ReplayCapabilities,
  pages: AsyncIterable<readonly StoredFact[]>,
  retraction?: Retraction,
): Promise<{ rows: ReplaySegment[]; parts: StatePart[] }> {
  const segments = new ReplaySegments(sessionId, capabilities, retraction);
  const rows: ReplaySegment[] = [];
  const parts = new Map<string, StatePart>();
  for await (const page of pages)
    for (const record of page) {
      const turn = segments.push(record);
      if (!turn) continue;
      rows.push(turn.row);
      for (const part of turn.parts) parts.set(part.part, part);
    }
  return { rows, parts: [...parts.values()] };
}
