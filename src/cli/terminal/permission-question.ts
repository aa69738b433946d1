/**
 * A permission question asked in the terminal: the card as the request shows it (its diff, or
 * the command it would run), then the options exactly as the ACP request offers them, numbered.
 * The answer typed goes back as the permission response, so it is recorded like any client's.
 * Ctrl-C (or Ctrl-D) answers nothing: the turn is cancelled and the question with it.
 */
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { cardPieces } from "../../view/transcript-lines.ts";
import type { ToolCardView } from "../../view/view-model.ts";
import { visible } from "../../view/visible-text.ts";
import { Painter } from "./painter.ts";
import type { LineAnswer } from "./line-reader.ts";
import { oneLine } from "./progress-lines.ts";

export type Asker = {
  /** Writes on the terminal (stderr). */
  write(text: string): void;
  /** Reads one typed line after `prompt`. */
  read(prompt: string): Promise<LineAnswer>;
  /** Cancels the turn the question belongs to. */
  cancelTurn(): void;
  colour: boolean;
};

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };

/** The question as it is drawn before the options: the card the request carries. */
export function questionCard(request: RequestPermissionRequest): ToolCardView {
  const call = request.toolCall;
  const command = (call.rawInput as { command?: unknown } | undefined)?.command;
  const content = call.content ?? [];
  const title = call.title ?? call.toolCallId;
  // A command's card shows no output yet: what would run is the question.
  const shown =
    content.length === 0 && typeof command === "string" && command !== title
      ? [{ type: "content" as const, content: { type: "text" as const, text: `$ ${command}` } }]
      : content;
  return {
    toolCallId: call.toolCallId,
    title,
    kind: call.kind ?? "other",
    status: call.status ?? "pending",
    ...(call.locations ? { locations: call.locations } : {}),
    content: shown,
  };
}

export async function askPermission(
  request: RequestPermissionRequest,
  asker: Asker,
): Promise<RequestPermissionResponse> {
  const painter = new Painter(asker.colour);
  let drawn = "";
  for (const piece of cardPieces(questionCard(request))) drawn += painter.paint(piece);
  asker.write(`\n${drawn}`);
  const options = request.options;
  asker.write(`${options.map((o, i) => `  ${i + 1}) ${oneLine(o.name)}`).join("\n")}\n`);
  const prompt = `? ${oneLine(request.toolCall.title ?? request.toolCall.toolCallId)} — answer 1-${options.length}: `;
  for (;;) {
    const answer = await asker.read(prompt);
    if (answer.kind !== "line") {
      asker.cancelTurn();
      asker.write("no answer: the turn is cancelled\n");
      return CANCELLED;
    }
    const typed = answer.text.trim();
    const chosen = /^\d+$/.test(typed) ? options[Number(typed) - 1] : undefined;
    if (chosen) return { outcome: { outcome: "selected", optionId: chosen.optionId } };
    asker.write(
      `"${visible(typed).slice(0, 40)}" is not one of the answers: type a number from 1 to ${options.length} and Enter (Ctrl-C cancels the turn)\n`,
    );
  }
}
