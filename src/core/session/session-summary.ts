/**
 * What a history view shows of a session beside its title (the RFD "session list for history
 * views"): computed from its recorded facts when the list is read, never stored.
 */
import type { JournalStore } from "../../journal/store.ts";
import type { Money } from "../../journal/facts/index.ts";
import { defined } from "../../shared/defined.ts";

export type SessionSummary = {
  /** `running` while a live process runs its last turn; `interrupted` when that turn never ended (its process died). */
  state: "idle" | "running" | "interrupted";
  /** When its last turn ended. */
  lastTurnEndedAt?: string;
  /** Its cost as last shown (its last `usage_update`). */
  cost?: Money;
};

export async function sessionSummary(store: JournalStore, sessionId: string): Promise<SessionSummary> {
  const [turn, ended, usage] = await Promise.all([
    store.lastOf(sessionId, ["prompt_received", "turn_ended", "session_recovered"]),
    store.lastOf(sessionId, ["turn_ended"]),
    store.lastOf(sessionId, ["usage_recorded"]),
  ]);
  const open = turn?.fact.kind === "prompt_received";
  const state = !open ? "idle" : (await store.holder(sessionId)) ? "running" : "interrupted";
  const cost = usage?.fact.kind === "usage_recorded" ? (usage.fact.sessionCost ?? usage.fact.cost) : undefined;
  return { state, ...defined({ lastTurnEndedAt: ended?.at, cost }) };
}
