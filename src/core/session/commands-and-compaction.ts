/**
 * A turn's slash command, and compaction with its hooks: a slash command in the prompt is recorded
 * (a project command's text becomes what the model reads; `/compact` is carried out here and ends
 * the turn). A compaction is asked of PreCompact hooks first (a block skips it); one that
 * completed runs SessionStart (`source: "compact"`), then PostCompact. The automatic compaction
 * before a model request is compaction/window-guard.ts's, through `runCompaction`.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { Fact } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { invocationOf, type Invocation } from "../commands/slash.ts";
import type { InlineRunner } from "../commands/shell-inlines.ts";
import { blockedNotice, runCompaction, type CompactionRun } from "../compaction/run-compaction.ts";
import { mintId } from "../ids.ts";
import { commandPlace } from "./command-place.ts";
import type { TurnOutcome } from "../turn/run-turn.ts";

/** Records the slash command a prompt invokes, if any (never inside a subagent). */
export async function recordInvocation(
  turnId: string,
  blocks: ContentBlock[],
  state: SessionStateFold,
  record: (fact: Fact) => Promise<void>,
  runInline?: InlineRunner,
): Promise<Invocation | undefined> {
  if (state.parentSessionId !== undefined) return undefined;
  const invocation = await invocationOf(blocks, commandPlace(state), undefined, runInline);
  if (!invocation) return undefined;
  await record({
    kind: "command_invoked",
    turnId,
    name: invocation.kind === "prompt" ? invocation.name : invocation.kind,
    arguments: invocation.arguments,
    ...(invocation.kind === "prompt" ? { modelText: invocation.modelText } : {}),
  });
  return invocation;
}

/** `/compact [focus]`: compacts the whole context and ends the turn. */
export async function compactCommand(p: CompactionRun, focus: string): Promise<TurnOutcome> {
  if (p.messages.length === 0) {
    await p.record({
      kind: "notice_shown",
      messageId: mintId("msg"),
      severity: "info",
      title: "There is nothing to compact yet.",
    });
  } else {
    const result = await runCompaction(p, { trigger: "manual", history: [...p.messages], focus });
    if (result.outcome === "blocked") await p.record(blockedNotice(result.reason));
  }
  const stopReason = p.signal.aborted ? "cancelled" : "end_turn";
  await p.record({ kind: "turn_ended", turnId: p.turnId, outcome: "completed", stopReason });
  return { ok: true, stopReason };
}
