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
import { processTerminal, readLine, type LineSource } from "./line-reader.ts";
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
    const io = processTerminal();
    const read = where.read ?? ((prompt: string) => readLine(io, prompt));
    return (request) =>
      askPermission(request, {
        write: (text) => where.screen.progress(text),
        read,
        cancelTurn: where.cancelTurn,
        colour: colourOn(process.stderr),
      });
  }
  const chosen = approve ?? "none";
  return async (request) => {
    const response = await policies[chosen](request);
    where.progress.permission(request, response, chosen);
    return response;
  };
}
