/**
 * A title the user gives a session (ACP's `session/set_title`): recorded as the `title_set` fact an
 * automatic title is, so live, a reload, `verbatim show` and `session/list` all show it, and the
 * first prompt's automatic title never replaces it (it is taken only while a session has none).
 * The session open in this process records it as any fact (journal first, then shown to its
 * clients); a stored session no live process holds is written here, under its lease for the one
 * append; one another live process writes is refused (`busy`): only its writer appends to it.
 */
import { busy } from "../../journal/errors.ts";
import type { Fact } from "../../journal/facts/index.ts";
import type { JournalStore } from "../../journal/store.ts";
import { EngineError } from "../errors.ts";

/** A client's title's longest stored form: longer ones are cut (with an ellipsis), as ACP lets an agent normalize. */
export const MAX_CLIENT_TITLE = 200;

/**
 * The title as stored: control characters and runs of white space (line breaks included) become
 * one space, the ends are trimmed, and past MAX_CLIENT_TITLE characters it is cut. Throws EngineError
 * `invalid_title` when nothing is left.
 */
export function clientTitle(requested: string): string {
  const title = requested.replace(/[\p{Cc}\s]+/gu, " ").trim();
  if (title === "") throw new EngineError("invalid_title", "a session title needs some text", { title: requested });
  const chars = [...title];
  return chars.length > MAX_CLIENT_TITLE ? `${chars.slice(0, MAX_CLIENT_TITLE - 1).join("")}…` : title;
}

/** Records the title for the session open in this process; resolves with it once it is recorded and shown. */
export async function retitleOpen(session: { record(fact: Fact): Promise<void> }, requested: string): Promise<string> {
  const title = clientTitle(requested);
  await session.record({ kind: "title_set", title });
  return title;
}

/**
 * Records the title for a stored session no live process holds: takes its lease, appends after its
 * last record, gives the lease back. Rejects with `busy` while a live process (this one included:
 * a subagent's session its parent runs) holds it, and with `not_found` for a session not in the journal.
 */
export async function retitleStored(
  store: Pick<JournalStore, "holder" | "acquire" | "release" | "lastSeq" | "append">,
  sessionId: string,
  requested: string,
  now: () => Date = () => new Date(),
): Promise<string> {
  const title = clientTitle(requested);
  const holder = await store.holder(sessionId);
  if (holder) throw busy(sessionId, holder);
  await store.acquire(sessionId);
  try {
    const last = await store.lastSeq(sessionId);
    await store.append(sessionId, last + 1, { kind: "title_set", title }, now().toISOString());
  } finally {
    await store.release(sessionId);
  }
  return title;
}
