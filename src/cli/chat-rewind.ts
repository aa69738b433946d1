/**
 * `/rewind` at the chat prompt (`/rewind --files` to restore verbatim's own edits too): lists the
 * session's prompts, asks which one to go back to and what to send instead, and sends it as
 * `_verbatim/session/edit_prompt`: everything from that prompt on is taken back (the journal keeps
 * it) and the new prompt runs from there. The terminal cannot unprint lines, so a line says what
 * is taken back before the new prompt's turn is drawn (with `--files`, the agent's notice of the
 * restore follows it in the transcript); `verbatim show` and a reopened chat draw the session
 * without what was taken back.
 */
import type { ClientContext, StopReason } from "@agentclientprotocol/sdk";
import { EDIT_PROMPT_METHOD, requestExtension } from "../protocol/extensions.ts";
import { dropRetracted } from "../view/drop-retracted.ts";
import type { ViewModel } from "../view/view-model.ts";
import { visible } from "../view/visible-text.ts";
import type { LineSource } from "./terminal/line-reader.ts";

/** What a chat line asking for a rewind looks like. */
export const isRewindCommand = (text: string): boolean => /^\/rewind(\s+--files)?\s*$/.test(text.trim());

/** The prompts a client's view shows, oldest first: their ids and first lines. */
export function promptsOf(view: ViewModel): { messageId: string; text: string }[] {
  return view.timeline.flatMap((entry) => {
    const message = entry.startsWith("message:") ? view.messages[entry.slice("message:".length)] : undefined;
    if (message?.role !== "user") return [];
    const text = message.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join(" ");
    return [{ messageId: message.id, text: text.split("\n")[0]?.slice(0, 70) ?? "" }];
  });
}

/** How many messages and tool calls a view shows from a message on (that message included). */
function shownFrom(view: ViewModel, messageId: string): { messages: number; toolCalls: number } {
  const entries = view.timeline.slice(view.timeline.indexOf(`message:${messageId}`));
  return {
    messages: entries.filter((e) => e.startsWith("message:")).length,
    toolCalls: entries.filter((e) => e.startsWith("tool:")).length,
  };
}

/**
 * Asks and runs one rewind; returns the new turn's stop reason, or undefined when the user chose
 * nothing (Enter, Ctrl-C or Ctrl-D at either question).
 */
export async function chatRewind(
  run: {
    agent: ClientContext;
    sessionId: string;
    view: ViewModel;
    read: LineSource;
    say: (text: string) => void;
    /** Runs the new prompt's turn (the chat's wait for the model). */
    turn: <T>(request: () => Promise<T>) => Promise<T>;
  },
  line: string,
): Promise<StopReason | undefined> {
  const prompts = promptsOf(run.view);
  if (prompts.length === 0) {
    run.say("(no prompt to rewind to yet)\n");
    return undefined;
  }
  run.say(prompts.map((p, i) => `  ${String(i + 1).padStart(3)}  ${visible(p.text)}\n`).join(""));
  const which = await run.read(`go back to before prompt (1-${prompts.length}, Enter cancels): `);
  const chosen = which.kind === "line" ? prompts[Number(which.text.trim()) - 1] : undefined;
  if (!chosen) return undefined;
  const text = await run.read("send instead (Enter cancels): ");
  if (text.kind !== "line" || text.text.trim() === "") return undefined;
  const files = /--files/.test(line);
  // Said before the new prompt's turn is drawn: what the view shows from the chosen prompt on is what the rewind takes back.
  const taken = shownFrom(run.view, chosen.messageId);
  run.say(
    `(rewound: ${taken.messages} message(s) and ${taken.toolCalls} tool call(s) taken back; the journal keeps them; ${files ? "files are restored as the notice below says" : "files are left as they are"}, and commands are never undone)\n`,
  );
  const answer = await run.turn(() =>
    requestExtension(run.agent, EDIT_PROMPT_METHOD, {
      sessionId: run.sessionId,
      messageId: chosen.messageId,
      newContent: [{ type: "text", text: text.text }],
      files,
    }),
  );
  dropRetracted(run.view, answer._meta.verbatim.retracted);
  return answer.stopReason;
}
