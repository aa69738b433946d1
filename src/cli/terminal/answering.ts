/**
 * Who answers a permission question: `--approve` when it was given; else the person at the
 * terminal, when stdin and stderr are both a terminal (through the command's line editor, when it
 * keeps one); else nobody is there to ask, and the
 * question is refused as `--approve none` refuses it. A policy's answer is reported on stderr.
 */
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { choose, type PermissionPolicy } from "../../client/view-client.ts";
import type { Approve } from "../run-args.ts";
import { colourOn } from "./ansi.ts";
import { LineEditor } from "./line-editor.ts";
import { processTerminal, type LineSource } from "./line-reader.ts";
import { askPermission } from "./permission-question.ts";
import type { ProgressLines } from "./progress-lines.ts";
import type { Screen } from "./screen.ts";

const policies: Record<Approve, PermissionPolicy> = {
  all: choose("allow_once"),
  none: choose("reject_once"),
  edits: (request: RequestPermissionRequest) =>
    (request.toolCall.kind === "edit" ? choose("allow_once") : choose("reject_once"))(request),
};

/** Whether a person can be asked: stdin and stderr are both a terminal. */
export const canAsk = (): boolean => process.stdin.isTTY === true && process.stderr.isTTY === true;

export function terminalPermissions(
  approve: Approve | undefined,
  where: { screen: Screen; progress: ProgressLines; cancelTurn: () => void; read?: LineSource },
  ask: boolean = canAsk(),
): PermissionPolicy {
  if (approve === undefined && ask) {
    return askAtTerminal({
      write: (text) => where.screen.progress(text),
      cancelTurn: where.cancelTurn,
      ...(where.read ? { read: where.read } : {}),
    });
  }
  const chosen = approve ?? "none";
  return async (request) => {
    const response = await policies[chosen](request);
    where.progress.permission(request, response, chosen);
    return response;
  };
}

/**
 * Asks each question of the person at the terminal (`read`: the command's own line editor, when it
 * keeps one). Otherwise each question gets a line editor of its own for its whole length, a wrong
 * answer's retry included: a key typed right after the retry is asked never falls to the
 * terminal's own line editing between two editors.
 */
export function askAtTerminal(how: {
  write(text: string): void;
  cancelTurn(): void;
  read?: LineSource;
}): PermissionPolicy {
  const io = processTerminal();
  return async (request) => {
    const editor = how.read ? undefined : new LineEditor(io);
    try {
      return await askPermission(request, {
        write: how.write,
        read: how.read ?? ((prompt: string) => (editor as LineEditor).read(prompt)),
        cancelTurn: how.cancelTurn,
        colour: colourOn(process.stderr),
      });
    } finally {
      editor?.close();
    }
  };
}
