/**
 * `verbatim show ID --ids`: the ids of the messages a client is shown, one a line with its role and
 * the start of its text, so a script or a person can name one to `verbatim rewind --to` or to
 * `session/fork`'s `messageId`. Messages a refusal or a rewind took back are not listed (they are
 * not shown); thoughts are not listed (no rewind or fork stops at one).
 */
import type { StoredFact } from "../journal/facts/index.ts";
import { readRecords } from "../journal/store.ts";
import { MessagePoints } from "../replay/message-points.ts";
import { visible } from "../view/visible-text.ts";
import { onSession } from "./sessions.ts";

/** How much of a message's text a line shows. */
const EXCERPT = 60;

export type ListedMessage = { messageId: string; role: "user" | "agent"; text: string };

/** The messages of a session's records a client is shown, in order, with their text. */
export function shownMessages(records: Iterable<StoredFact>): ListedMessage[] {
  const points = new MessagePoints();
  const texts = new Map<string, string>();
  for (const record of records) {
    points.push(record);
    const { fact } = record;
    if (fact.kind === "prompt_received" || fact.kind === "steering_received")
      texts.set(fact.messageId, fact.blocks.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join(" "));
    if (fact.kind === "message_chunk" && fact.stream === "answer")
      texts.set(fact.messageId, (texts.get(fact.messageId) ?? "") + fact.text);
    if (fact.kind === "notice_shown") texts.set(fact.messageId, fact.title);
  }
  return points
    .all()
    .flatMap((p) =>
      p.role === "thought" ? [] : [{ messageId: p.messageId, role: p.role, text: texts.get(p.messageId) ?? "" }],
    );
}

/** One line: the id, the role, the text's start on one line (control characters shown as escapes). */
export function messageLine({ messageId, role, text }: ListedMessage): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const excerpt = flat.length > EXCERPT ? `${flat.slice(0, EXCERPT - 1)}…` : flat;
  return `${messageId}  ${role.padEnd(5)}  ${visible(excerpt)}\n`;
}

export function showMessageIds(sessionId: string): Promise<number> {
  return onSession(sessionId, async ({ store }) => {
    const records: StoredFact[] = [];
    for await (const record of readRecords(store, sessionId)) records.push(record);
    process.stdout.write(shownMessages(records).map(messageLine).join(""));
    return 0;
  });
}
