/**
 * What a session's rewinds took back, as its last `session_rewound` record says: the runs of
 * records that leave the model's context and whose entries a replay leaves out (the client
 * dropped them when its rewind was answered). Pure.
 */
import type { FactOf, RetractedRange, StoredFact } from "../journal/facts/index.ts";

/** The runs taken back, in order, as of the rewind recorded at `rewoundAt`. */
export type Retraction = { rewoundAt: number; ranges: readonly RetractedRange[] };

/** Every run taken back once the rewind recorded at `seq` holds: the earlier ones kept, and its own. */
export function rangesOf(fact: FactOf<"session_rewound">, seq: number): RetractedRange[] {
  const own = fact.toSeq + 1 <= seq - 1 ? [{ fromSeq: fact.toSeq + 1, toSeq: seq - 1 }] : [];
  return [...fact.earlier, ...own];
}

/** The retraction a session's last rewind record says (none without one). */
export function retractionOf(record: StoredFact | undefined): Retraction | undefined {
  if (record?.fact.kind !== "session_rewound") return undefined;
  return { rewoundAt: record.seq, ranges: rangesOf(record.fact, record.seq) };
}

/** Whether a record is taken back: a binary search over the runs (a replay asks once per record). */
export function isRetracted(ranges: readonly RetractedRange[], seq: number): boolean {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const range = ranges[mid] as RetractedRange;
    if (seq < range.fromSeq) high = mid - 1;
    else if (seq > range.toSeq) low = mid + 1;
    else return true;
  }
  return false;
}
