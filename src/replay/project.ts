/**
 * The one projection from facts to ACP session updates. The live path applies it to each fact
 * right after the fact is appended; `session/load` applies it to the stored facts in order.
 * Pure: no I/O, no clock (times come from the records), no tool code.
 */
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import { textContent } from "../journal/facts/display-shapes.ts";
import type { StoredFact } from "../journal/facts/index.ts";
import { cardMeta, contentAndMetaUpdate, interruptCard, type Card } from "./card.ts";
import { HookOutcomeProjection } from "./hook-outcomes.ts";
import { compactedUsage, compactionUpdates, prunedTitle, type CompactionShown } from "./compaction-updates.ts";
import { answerLine, permissionLine, questionLine, refusalLine, ruleLine } from "./card-lines.ts";
import { CardTable } from "./card-table.ts";
import * as jobCard from "./job-card.ts";
import * as sandboxCard from "./sandbox-card.ts";
import { endedLine, type RestoreMeta } from "./restore-card.ts";
import { turnEndedOf, turnEndUpdate } from "./turn-end.ts";
import { commandActivatedNotice, contextGivenNotice, contextMeta, instructionsLoadedNotice } from "./context-notice.ts";
import { interruptionMarks } from "./interruption-marks.ts";
import { noticeUpdates } from "./notice-update.ts";
import { announcedCall, announcedRestore } from "./announced-card.ts";

export type ProjectionContext = {
  /** The client advertised `session.notices`: notices go out as ACP `notice`, live only. */
  readonly notices: boolean;
  /** Projecting stored facts for `session/load` rather than live (switched off once it ends). */
  replay: boolean;
  /** The session projected: hook outcomes from another session never attach to its cards. */
  sessionId?: string;
  /** The client advertised `session.compaction`: compactions go out as ACP compaction updates. */
  readonly compaction?: boolean;
};

/** What a projector has folded: its cards, hook outcomes and compactions (replay-state.ts stores and restores it). */
export type ProjectorFolded = {
  readonly cards: CardTable;
  readonly hooks: HookOutcomeProjection;
  readonly compactions: Map<string, CompactionShown>;
};

export class Projector {
  readonly #cards = new CardTable();
  readonly #hooks = new HookOutcomeProjection();
  readonly #compactions = new Map<string, CompactionShown>();

  constructor(readonly context: ProjectionContext) {}

  /** The projector's state, live (not a copy): for the replay cache's snapshot of it. */
  get folded(): ProjectorFolded {
    return { cards: this.#cards, hooks: this.#hooks, compactions: this.#compactions };
  }

  /** The updates one fact shows. Updates the projector's card state. */
  apply({ fact, at }: StoredFact): SessionUpdate[] {
    switch (fact.kind) {
      case "session_started":
      case "step_ended":
      case "file_seen":
      case "permission_rule_added":
      case "access_granted":
      case "mcp_tools_listed":
      case "command_invoked":
      case "session_forked":
      case "session_moved":
      case "session_imported":
      case "session_rewound":
      case "permission_settings_read":
      case "workspace_trust_answered":
      case "session_held":
        return [];
      case "files_restore_planned":
        return [this.#announceCard(announcedRestore(fact))];
      case "files_restore_started":
        return this.#withCard(fact.restoreId, (card) => {
          card.status = "in_progress";
          card.started = true;
          return [{ sessionUpdate: "tool_call_update", toolCallId: card.toolCallId, status: "in_progress" }];
        });
      case "files_restore_ended":
        return this.#withCard(fact.restoreId, (card) => {
          const status = fact.outcome === "completed" ? "completed" : "failed";
          card.status = status;
          card.meta = {
            ...card.meta,
            restore: { ...(card.meta.restore as RestoreMeta), done: fact.files },
            ...(fact.outcome === "refused" ? { outcome: { by: "user", reason: fact.reason ?? "refused" } } : {}),
          };
          card.notes = [...card.notes, textContent(endedLine(fact))];
          return [contentAndMetaUpdate(card, { status })];
        });
      case "turn_ended": {
        const ended = turnEndedOf(fact);
        return ended ? [turnEndUpdate(ended)] : [];
      }
      case "commands_available":
        return [{ sessionUpdate: "available_commands_update", availableCommands: fact.commands }];
      case "compaction_started":
      case "compaction_chunk":
        return compactionUpdates(fact, this.#compactions, this.context.compaction === true);
      case "compaction_ended":
        return [
          ...compactionUpdates(fact, this.#compactions, this.context.compaction === true),
          ...compactedUsage(fact),
        ];
      case "tool_results_pruned":
        return [
          ...noticeUpdates(this.context, { messageId: fact.messageId, severity: "info", title: prunedTitle(fact) }),
          { sessionUpdate: "usage_update", used: fact.context.used, size: fact.context.size },
        ];
      case "subagent_started":
        return this.#withCard(fact.toolCallId, (card) => {
          card.meta = {
            ...card.meta,
            subagent: { sessionId: fact.sessionId, subagentType: fact.subagentType, description: fact.description },
          };
          card.interop = { ...card.interop, subagent_session_info: { session_id: fact.sessionId } };
          return [contentAndMetaUpdate(card)];
        });
      case "prompt_received":
      case "steering_received":
        return fact.blocks.map((content) => ({
          sessionUpdate: "user_message_chunk",
          content,
          messageId: fact.messageId,
        }));
      case "prompt_link_read":
        return [
          {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: fact.text },
            messageId: fact.messageId,
            _meta: {
              verbatim: {
                linkRead: {
                  uri: fact.uri,
                  read: fact.content !== undefined,
                  ...(fact.path !== undefined ? { path: fact.path } : {}),
                  ...(fact.bytes !== undefined ? { bytes: fact.bytes } : {}),
                  ...(fact.reason !== undefined ? { reason: fact.reason } : {}),
                },
              },
            },
          },
        ];
      case "message_chunk":
        return [
          {
            sessionUpdate: fact.stream === "thought" ? "agent_thought_chunk" : "agent_message_chunk",
            content: { type: "text", text: fact.text },
            messageId: fact.messageId,
          },
        ];
      case "title_set":
        return [{ sessionUpdate: "session_info_update", title: fact.title, updatedAt: at }];
      case "config_changed":
        return [
          ...(fact.modeId !== undefined
            ? [{ sessionUpdate: "current_mode_update" as const, currentModeId: fact.modeId }]
            : []),
          { sessionUpdate: "config_option_update", configOptions: fact.configOptions },
        ];
      case "usage_recorded": {
        // Older records kept only the step's cost, and that is what they showed.
        const cost = fact.sessionCost ?? fact.cost;
        return [{ sessionUpdate: "usage_update", used: fact.used, size: fact.size, ...(cost ? { cost } : {}) }];
      }
      case "notice_shown":
        return noticeUpdates(this.context, fact);
      case "context_given":
        return noticeUpdates(
          this.context,
          { messageId: fact.messageId, ...contextGivenNotice(fact) },
          contextMeta(fact),
        );
      case "command_activated":
        return noticeUpdates(this.context, { messageId: fact.messageId, ...commandActivatedNotice(fact) });
      case "instructions_loaded":
        return noticeUpdates(
          this.context,
          { messageId: fact.messageId, ...instructionsLoadedNotice(fact) },
          { loaded: { toolCallId: fact.toolCallId, source: fact.source } },
        );
      case "plan_updated":
        return [{ sessionUpdate: "plan", entries: fact.entries }];
      case "tool_call_announced":
        return [this.#announceCard(announcedCall(fact, this.#shown(fact.content)))];
      case "tool_call_started":
        return this.#withCard(fact.toolCallId, (card) => {
          card.status = "in_progress";
          card.started = true;
          return [{ sessionUpdate: "tool_call_update", toolCallId: card.toolCallId, status: "in_progress" }];
        });
      case "tool_call_progressed":
        return this.#withCard(fact.toolCallId, (card) => {
          card.body = this.#shown(fact.content);
          if (fact.title === undefined) return [contentAndMetaUpdate(card)];
          // A retitled card (a subagent's question opens or ends) is sent whole, as the question's `toolCall` is.
          card.title = fact.title;
          return [this.permissionToolCall(card)];
        });
      case "tool_call_finished":
        return this.#withCard(fact.toolCallId, (card) => {
          card.status = fact.status;
          card.body = this.#shown(fact.content);
          if (card.job) jobCard.jobCallFinished(card, card.job, card.body);
          const update = contentAndMetaUpdate(card, { status: card.status });
          return [fact.rawOutput === undefined ? update : { ...update, rawOutput: fact.rawOutput }];
        });
      case "tool_call_refused":
        return this.#withCard(fact.toolCallId, (card) => {
          card.status = "failed";
          card.meta = { ...card.meta, outcome: { by: fact.by, reason: fact.reason } };
          card.notes = [...card.notes, textContent(refusalLine(fact.by, fact.reason))];
          return [contentAndMetaUpdate(card, { status: "failed" })];
        });
      case "permission_requested":
        return this.#withCard(fact.toolCallId, (card) => {
          card.meta = { ...card.meta, permission: { options: fact.options, outcome: null } };
          return [this.permissionToolCall(card)];
        });
      case "permission_answered":
        return this.#withCard(fact.toolCallId, (card) => {
          const permission = card.meta.permission;
          const options = permission?.options ?? [];
          card.meta = { ...card.meta, permission: { options, outcome: fact.outcome } };
          card.notes = [
            ...card.notes,
            textContent(permissionLine(options, fact.outcome, fact.answeredBy, fact.failure)),
          ];
          return [contentAndMetaUpdate(card)];
        });
      case "permission_ruled":
        return this.#withCard(fact.toolCallId, (card) => {
          card.meta = {
            ...card.meta,
            rule: { decision: fact.decision, rules: fact.rules, ...(fact.why === undefined ? {} : { why: fact.why }) },
          };
          card.notes = [...card.notes, textContent(ruleLine(fact))];
          return [contentAndMetaUpdate(card)];
        });
      case "question_asked":
        return this.#withCard(fact.toolCallId, (card) => {
          card.meta = {
            ...card.meta,
            question: { message: fact.message, requestedSchema: fact.requestedSchema, answer: null },
          };
          card.notes = [...card.notes, textContent(questionLine(fact.message))];
          return [contentAndMetaUpdate(card)];
        });
      case "question_answered":
        return this.#withCard(fact.toolCallId, (card) => {
          const asked = card.meta.question as { message: string; requestedSchema: Record<string, unknown> } | undefined;
          const { kind: _kind, toolCallId: _id, ...answer } = fact;
          card.meta = { ...card.meta, question: { ...asked, answer } };
          card.notes = [...card.notes, textContent(answerLine(asked?.requestedSchema ?? {}, fact))];
          return [contentAndMetaUpdate(card)];
        });
      case "session_recovered":
        return [
          ...fact.calls.flatMap((call) =>
            this.#withCard(call.toolCallId, (card) => [interruptCard(card, call.mayHaveRun)]),
          ),
          ...(fact.interruptedTurnId ? [turnEndUpdate({ turnId: fact.interruptedTurnId, ending: "interrupted" })] : []),
        ];
      case "job_started":
        return this.#withCard(fact.toolCallId, (card) => {
          jobCard.jobStarted(card, fact);
          return [contentAndMetaUpdate(card)];
        });
      case "job_output":
        return this.#withJob(fact, (card, job) => {
          jobCard.jobOutput(card, job, fact);
          return [contentAndMetaUpdate(card)];
        });
      case "job_ended":
        return this.#withJob(fact, (card, job) => {
          jobCard.jobEnded(card, job, fact);
          return [contentAndMetaUpdate(card, { status: card.status })];
        });
      case "command_sandboxed":
        return this.#withCard(fact.toolCallId, (card) => {
          sandboxCard.commandSandboxed(card, fact);
          return [contentAndMetaUpdate(card)];
        });
      case "sandbox_violations":
        return this.#withCard(fact.toolCallId, (card) => {
          sandboxCard.sandboxViolations(card, fact);
          return [contentAndMetaUpdate(card)];
        });
      case "hook_outcome":
        return this.#hooks.apply(fact, this.#cards, this.context.sessionId);
      case "tool_input_rewritten":
        return this.#withCard(fact.toolCallId, (card) => {
          card.rawInput = fact.rawInput;
          card.title = fact.title;
          card.locations = fact.locations;
          card.body = this.#shown(fact.content);
          return [
            {
              ...contentAndMetaUpdate(card),
              title: card.title,
              rawInput: card.rawInput,
              locations: card.locations,
            },
          ];
        });
    }
  }

  /**
   * The card as it is shown while a permission question is open: the update this projector
   * sends for `permission_requested`, and the `toolCall` of the request itself.
   */
  permissionToolCall(card: Card): SessionUpdate & { sessionUpdate: "tool_call_update" } {
    return {
      sessionUpdate: "tool_call_update",
      toolCallId: card.toolCallId,
      title: card.title,
      kind: card.kind,
      status: card.status,
      rawInput: card.rawInput,
      locations: card.locations,
      content: [...card.body, ...card.notes],
      _meta: cardMeta(card),
    };
  }

  card(toolCallId: string): Card | undefined {
    return this.#cards.get(toolCallId);
  }

  /**
   * Updates marking every call still open as interrupted. Computed at load when no live process
   * holds the session; never written. Leaves the projector's state unchanged.
   */
  interruptionMarks(): SessionUpdate[] {
    return interruptionMarks(this.#cards);
  }

  /**
   * Card content as this projection shows it. A client terminal lives only as long as the
   * process that created it: a replay never shows one (the command's recorded output follows).
   */
  #shown(content: ToolCallContent[]): ToolCallContent[] {
    return this.context.replay ? content.filter((c) => c.type !== "terminal") : content;
  }

  /** A job's facts change the card of the call that started it (none: nothing is shown). */
  #withJob(
    fact: { toolCallId: string; jobId: string },
    change: (card: Card, job: jobCard.CardJob) => SessionUpdate[],
  ): SessionUpdate[] {
    const card = this.#cards.get(fact.toolCallId);
    return card?.job?.jobId === fact.jobId ? change(card, card.job) : [];
  }

  /** A card announced: kept, and shown by its `tool_call`. */
  #announceCard({ card, update }: { card: Card; update: SessionUpdate }): SessionUpdate {
    this.#cards.set(card.toolCallId, card);
    return update;
  }

  /** Facts about a call with no card project to nothing: no card is ever invented. */
  #withCard(toolCallId: string, change: (card: Card) => SessionUpdate[]): SessionUpdate[] {
    const card = this.#cards.get(toolCallId);
    return card ? change(card) : [];
  }
}
