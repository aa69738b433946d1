/**
 * A load's use of the replay cache: the longest run of valid rows from record 1, written as it is
 * read (cached-run.ts); then the state stored after the run's last turn, when
 * it is there and whole (its head names that turn's end, every part's checksum holds). With the
 * state, the load restores the session from it and reads only the records after it; without, it
 * reads and folds every record but sends nothing for those the run covers. Everything after the
 * run replays from the facts. The state is read in two steps: what the load needs to answer, then
 * the rest (most of it: the cards of settled calls), before the session projects another fact.
 * Never writes.
 */
import { partChecksumHolds, type ReplayCacheKey, type ReplayStatePart } from "../../journal/replay-cache.ts";
import type { FactStore } from "../../journal/store.ts";
import type { ReplayCacheStore } from "../../journal/replay-cache.ts";
import { log } from "../../shared/log.ts";
import { isFoldSnapshot } from "../../replay/fold-snapshot.ts";
import { openingPartNames, type StateHead } from "../../replay/replay-state.ts";

/**
 * The opening of the state after the cached run's last turn, checked: `parts` holds the head and
 * the cards of the calls still open (restoreOpening's), `headPart` the head as stored.
 */
export type CachedState = { parts: readonly ReplayStatePart[]; head: StateHead; headPart: ReplayStatePart };

/**
 * The opening of the stored state, if it is there and sound: its head (when `coveredTo` is given,
 * the state after that record, the end of the run a load has written) and the cards of the calls
 * it leaves open, each part's checksum holding. A long session's settled cards are most of its
 * state, and a load needs none of them to answer: restOfState reads them, before the session
 * projects its next fact.
 */
export async function cachedState(
  store: FactStore & ReplayCacheStore,
  sessionId: string,
  key: ReplayCacheKey,
  coveredTo: number | undefined,
): Promise<CachedState | undefined> {
  if (coveredTo === 0) return undefined;
  const [headPart] = await store.readReplayState(sessionId, key, ["head"]);
  if (!headPart || !holds(sessionId, key, [headPart])) return undefined;
  const head = JSON.parse(headPart.body) as StateHead;
  if (coveredTo !== undefined && head.toSeq !== coveredTo) return undefined;
  // A head whose fold is not exactly a fold's snapshot is not used (as one that fails its checksum).
  if (!isFoldSnapshot(head.fold)) {
    log.warn(`replay cache state of session ${sessionId} holds a session state of another shape; folding the facts`);
    return undefined;
  }
  const names = openingPartNames(head);
  const parts = names.length > 1 ? await store.readReplayState(sessionId, key, names) : [headPart];
  // Every open call's card must be there (and the head unchanged since it was read).
  if (parts.length !== names.length || !holds(sessionId, key, parts)) return undefined;
  if (!sameHead(parts, headPart)) return undefined;
  return { parts, head, headPart };
}

/**
 * Every stored part of the state `state` opened, checked: undefined when one fails its checksum,
 * or when the state is no longer the one opened (another process's turn ended since). Never writes.
 */
export async function restOfState(
  store: FactStore & ReplayCacheStore,
  sessionId: string,
  key: ReplayCacheKey,
  state: CachedState,
): Promise<ReplayStatePart[] | undefined> {
  const parts = await store.readReplayState(sessionId, key);
  return holds(sessionId, key, parts) && sameHead(parts, state.headPart) ? parts : undefined;
}

/** The whole stored state (cachedState, then restOfState), for a writer that continues from it. */
export async function wholeState(
  store: FactStore & ReplayCacheStore,
  sessionId: string,
  key: ReplayCacheKey,
  coveredTo: number,
): Promise<{ parts: readonly ReplayStatePart[]; head: StateHead } | undefined> {
  const state = await cachedState(store, sessionId, key, coveredTo);
  const parts = state && (await restOfState(store, sessionId, key, state));
  return state && parts ? { parts, head: state.head } : undefined;
}

function holds(sessionId: string, key: ReplayCacheKey, parts: readonly ReplayStatePart[]): boolean {
  const bad = parts.find((p) => !partChecksumHolds(key, p));
  if (bad) log.warn(`replay cache state of session ${sessionId} fails its checksum (${bad.part}); folding the facts`);
  return bad === undefined;
}

const sameHead = (parts: readonly ReplayStatePart[], head: ReplayStatePart): boolean =>
  parts.some((p) => p.part === "head" && p.checksum === head.checksum && p.body === head.body);
