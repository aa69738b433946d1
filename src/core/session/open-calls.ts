/** Whether a load shows a session's open calls interrupted. */
import { isThisProcess } from "../../journal/process-identity.ts";
import type { JournalStore } from "../../journal/store.ts";

/**
 * True when no live process other than this one holds the session: then the calls it left open
 * are shown interrupted (a live holder may still finish them).
 */
export async function openCallsInterrupted(store: Pick<JournalStore, "holder">, sessionId: string): Promise<boolean> {
  const holder = await store.holder(sessionId);
  return !holder || isThisProcess(holder);
}
