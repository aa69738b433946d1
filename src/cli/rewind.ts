/**
 * `verbatim rewind ID --to MESSAGE [--files [--approve all|edits|none]]`: takes a session back to
 * one of its messages (the ids `verbatim show ID --ids` lists), through the agent in this process
 * as an editor would (`session/resume`, then `_verbatim/session/rewind`). Prints what was taken
 * back and, with `--files`, what the file restore did; commands are never undone, and it says so.
 * The restore writes files, so it is asked about as `run` asks about an edit: at the terminal when
 * stdin and stderr are one and no `--approve` was given, else `--approve` answers (default none).
 * A restore refused is recorded, nothing is restored, and the exit code is 3. Run again after a
 * restore a dead process left unfinished, it finishes that restore.
 */
import * as acp from "@agentclientprotocol/sdk";
import {
  type ExtensionResult,
  extensionErrorReasonOf,
  REWIND_METHOD,
  requestExtension,
} from "../protocol/extensions.ts";
import { reportError } from "./cli-error.ts";
import { startInProcessAgent, type InProcessAgent } from "./in-process-agent.ts";
import { checkJournalPlace } from "./journal-access.ts";
import { CliError } from "./cli-error.ts";
import { visible } from "../view/visible-text.ts";
import { choose, type PermissionPolicy } from "../client/view-client.ts";
import type { Approve } from "./run-args.ts";
import { askAtTerminal, canAsk } from "./terminal/answering.ts";

export { showMessageIds } from "./message-ids.ts";

type Answer = ExtensionResult<typeof REWIND_METHOD>;

/** The exit code of a restore that was refused (as `run`'s refusal). */
export const RESTORE_REFUSED_EXIT = 3;

export async function rewindCommand(
  sessionId: string,
  options: { to: string; files: boolean; approve?: Approve },
): Promise<number> {
  let journal: string | undefined;
  let started: InProcessAgent | undefined;
  try {
    journal = checkJournalPlace(process.env, { write: true });
    started = await startInProcessAgent(process.env, {
      trust: false,
      onUpdate: () => undefined,
      permission: restorePermission(options.approve),
    });
    const row = await started.deps.store.info(sessionId);
    if (!row)
      throw new CliError("session_not_found", `there is no session ${sessionId}; \`verbatim sessions\` lists them`, 1);
    await started.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: row.cwd, mcpServers: [] });
    const answer = await requestExtension(started.agent, REWIND_METHOD, {
      sessionId,
      toMessageId: options.to,
      files: options.files,
    });
    process.stdout.write(rewoundText(sessionId, options.to, answer));
    return answer._meta.verbatim.restore?.outcome === "refused" ? RESTORE_REFUSED_EXIT : 0;
  } catch (error) {
    return reportError(withHint(error, sessionId), { json: false, ...(journal ? { context: { journal } } : {}) });
  } finally {
    await started?.close();
  }
}

/** Who answers the restore's question: `--approve`, else the person at the terminal, else nobody (refused). */
function restorePermission(approve: Approve | undefined): PermissionPolicy {
  if (approve === undefined && canAsk())
    return askAtTerminal({ write: (text) => process.stderr.write(text), cancelTurn: () => undefined });
  const allowed = approve === "all" || approve === "edits";
  return choose(allowed ? "allow_once" : "reject_once");
}

/** A message the session does not show: the error says how to list those it does. */
function withHint(error: unknown, sessionId: string): unknown {
  if (extensionErrorReasonOf(error) !== "unknown_message" || !(error instanceof Error)) return error;
  return new CliError(
    "unknown_message",
    `${error.message}; \`verbatim show ${sessionId} --ids\` lists its messages`,
    1,
  );
}

/** What the rewind did, in words. */
export function rewoundText(sessionId: string, to: string, answer: Answer): string {
  const { retracted, files } = answer._meta.verbatim;
  const lines = [
    `rewound session ${sessionId} to message ${to}: ${retracted.messageIds.length} message(s) and ${retracted.toolCallIds.length} tool call(s) after it taken back (the journal keeps them)`,
  ];
  const restore = answer._meta.verbatim.restore;
  if (restore?.outcome === "refused")
    lines.push(
      `files were not restored: ${visible(restore.reason ?? "refused")} (--approve edits lets a restore run headless)`,
    );
  if (files) {
    for (const path of files.restored) lines.push(`restored ${visible(path)}`);
    for (const path of files.removed) lines.push(`removed ${visible(path)} (verbatim created it after that message)`);
    for (const { path, reason } of files.leftAlone) lines.push(`left alone ${visible(path)}: ${visible(reason)}`);
  }
  lines.push(
    files
      ? `${files.commandsRun} command(s) ran after that message: what commands did is never undone`
      : "files were not touched (--files restores what verbatim's own edits changed); what commands did is never undone",
  );
  return `${lines.join("\n")}\n`;
}
