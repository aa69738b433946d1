/**
 * Session state folded from facts: what the engine needs to continue a session (mode, config,
 * calls left open, the system prompt and tools it started with). Pure.
 */
import type { SessionConfigOption, SessionMode } from "@agentclientprotocol/sdk";
import type {
  Command,
  Fact,
  FactOf,
  Money,
  PermissionRule,
  PermissionSettingsRead,
  RetractedRange,
  ToolSpec,
} from "../journal/facts/index.ts";
import { rangesOf } from "./retraction.ts";
import { addCost } from "./session-cost.ts";
import {
  definedJob,
  type Holder,
  type OpenCall,
  type OpenJob,
  type QuestionOpen,
  type RestoreState,
} from "./state-parts.ts";

export class SessionStateFold {
  cwd = "";
  additionalDirectories: string[] = [];
  /** The session that spawned this one (a subagent's), if any, and the subagent's type. */
  parentSessionId: string | undefined;
  subagentType: string | undefined;
  /** The session this one was forked from, and how many of its records it began with (the last fork, for a fork of a fork). */
  forkOf: { sessionId: string; seq: number } | undefined;
  systemPrompt = "";
  tools: ToolSpec[] = [];
  /** The MCP tools last recorded (offered after the built-in ones). */
  mcpTools: ToolSpec[] = [];
  /** The slash commands last recorded, if any were. */
  commands: Command[] | undefined;
  /** What the model was last recorded as given beside its system prompt (`context_given`), if recorded. */
  context: Omit<FactOf<"context_given">, "kind" | "messageId"> | undefined;
  /**
   * The instruction files loaded on demand so far (each is loaded once a session); undefined until
   * one is, so that the cached state of a session that loaded none is what it was.
   */
  loadedInstructions: string[] | undefined;
  /**
   * The commands and skills acting in the turn that runs now (`command_activated`), in the order
   * they began; undefined outside one, so that the cached state of a session between turns is what it was.
   */
  activeCommands: FactOf<"command_activated">[] | undefined;
  /**
   * The hooks of the skills invoked so far, in order: registered for the rest of the session, as
   * Claude Code registers them; undefined until a skill with hooks is invoked.
   */
  skillHooks: { path: string; hooks: Record<string, unknown[]> }[] | undefined;
  /** Tokens in context after the last model step since the last compaction, and the window. */
  contextUsage: { used: number; size: number } | undefined;
  /** The session's cost so far (every priced step, compaction and subagent), if any was priced. */
  sessionCost: Money | undefined;
  modeId = "";
  availableModes: SessionMode[] = [];
  configOptions: SessionConfigOption[] = [];
  title: string | undefined;
  prompts = 0;
  /**
   * The turn that started last, whether it ended (its own end, or a recovery naming it), and the
   * controller's request it was the prompt of (`requestId`, a prompt taken from the inbox).
   */
  lastTurn: { turnId: string; ended: boolean; requestId?: string } | undefined;
  /**
   * The questions open, by key (see QuestionOpen). Not kept in the replay cache's state: a state is
   * stored at a turn's end, when none is open; whoever asks them (a controller's follower) folds every record.
   */
  readonly openQuestions = new Map<string, QuestionOpen>();
  readonly openCalls = new Map<string, OpenCall>();
  /** Background jobs started and not yet ended, by job id. */
  readonly openJobs = new Map<string, OpenJob>();
  /** Rules from "always" permission answers, oldest first. */
  readonly rules: PermissionRule[] = [];
  /** Directories outside the session's own that the user let file tools into for the session. */
  readonly grantedDirectories: string[] = [];
  /** Each file's content hash as the model last saw it (read or written). */
  readonly seenFiles = new Map<string, string>();
  /**
   * Each file's sightings, oldest first, as [seq, content hash] (a sighting of the hash the one
   * before saw is not kept: it changes nothing a rewind needs): a rewind goes back to what the
   * kept records saw.
   */
  readonly seenHistory = new Map<string, [number, string][]>();
  /**
   * The runs of records the session's rewinds took back, as its last rewind says
   * (replay/retraction.ts); undefined until a rewind, so that the cached state of a session never
   * rewound is what it was.
   */
  retracted: RetractedRange[] | undefined;
  /**
   * Who wrote the session, in order: each lease holder's machine and workspace from the record
   * that named it (its start's `holder`, a `session_held`), and an import as a holder of no
   * machine (what came before it is the file's). A rewind's restore undoes only the edits a
   * holder naming this machine and workspace made.
   */
  readonly holders: Holder[] = [];
  /** The last file restore planned (its card), and how far it went. */
  restore: RestoreState | undefined;
  lastSeq = 0;
  /**
   * The settings files' permission rules last recorded, and where (seq). A load from the replay
   * cache leaves none in force (replay/authority.ts): the session records its rules again before
   * it decides anything.
   */
  permissionSettings: { fact: PermissionSettingsRead; seq: number } | undefined;
  /** Whether the editor was asked to trust the workspace in this session (asked once); undefined until it is. */
  trustAsked: true | undefined;

  apply(fact: Fact, seq: number): void {
    this.lastSeq = seq;
    switch (fact.kind) {
      case "session_started":
        if (fact.holder) this.holders.push({ seq, host: fact.holder.host, cwd: fact.cwd });
        this.cwd = fact.cwd;
        this.additionalDirectories = fact.additionalDirectories;
        this.parentSessionId = fact.parentSessionId;
        this.subagentType = fact.subagentType;
        this.systemPrompt = fact.systemPrompt;
        this.tools = fact.tools;
        this.modeId = fact.modes.currentModeId;
        this.availableModes = fact.modes.availableModes;
        this.configOptions = fact.configOptions;
        return;
      case "mcp_tools_listed":
        this.mcpTools = fact.tools;
        return;
      case "commands_available":
        this.commands = fact.commands;
        return;
      case "context_given":
        this.context = {
          sources: fact.sources,
          skills: fact.skills,
          commands: fact.commands,
          agents: fact.agents,
          ...(fact.excludes ? { excludes: fact.excludes } : {}),
          ...(fact.excluded ? { excluded: fact.excluded } : {}),
        };
        return;
      case "instructions_loaded":
        this.loadedInstructions = [...(this.loadedInstructions ?? []), fact.source.path];
        return;
      case "usage_recorded":
        this.contextUsage = { used: fact.used, size: fact.size };
        this.sessionCost = fact.sessionCost ?? addCost(this.sessionCost, fact.cost);
        return;
      case "tool_results_pruned":
        this.contextUsage = fact.context;
        return;
      case "compaction_ended":
        // The compacted context as its usage update showed it (none in older records: the next step's).
        if (fact.outcome === "completed") this.contextUsage = fact.context;
        this.sessionCost = addCost(this.sessionCost, fact.cost);
        return;
      case "config_changed":
        this.configOptions = fact.configOptions;
        if (fact.modeId !== undefined) this.modeId = fact.modeId;
        return;
      case "title_set":
        this.title = fact.title;
        return;
      case "session_moved":
        this.cwd = fact.cwd;
        return;
      case "workspace_trust_answered":
        this.trustAsked = true;
        return;
      case "permission_settings_read":
        this.permissionSettings = { fact, seq };
        return;
      case "session_held":
        this.holders.push({ seq, host: fact.host, cwd: fact.cwd });
        return;
      case "files_restore_planned":
        this.restore = {
          restoreId: fact.restoreId,
          toMessageId: fact.toMessageId,
          files: fact.files,
          commandsRun: fact.commandsRun,
          prompts: this.prompts,
          started: false,
          ended: false,
        };
        return;
      case "files_restore_started":
        if (this.restore?.restoreId === fact.restoreId) this.restore.started = true;
        return;
      case "files_restore_ended":
        if (this.restore?.restoreId === fact.restoreId) this.restore.ended = true;
        return;
      case "session_imported":
        // Rules read before an import (the file's, from elsewhere) never decide: none are in force until recorded here.
        this.permissionSettings = undefined;
        this.holders.push({ seq, host: "", cwd: "" });
        // An imported history's jobs ran elsewhere, or belong to the session it was exported from.
        this.openJobs.clear();
        // Imported from a file: the history before this is the file's, what it allowed is only what this keeps.
        this.additionalDirectories = fact.additionalDirectories;
        this.rules.splice(0, this.rules.length, ...fact.rules);
        // Hooks registered in the imported history are the file's: none run here until a skill is invoked here.
        this.skillHooks = undefined;
        this.grantedDirectories.splice(0, this.grantedDirectories.length, ...fact.grantedDirectories);
        return;
      case "session_forked":
        this.forkOf = { sessionId: fact.fromSessionId, seq: fact.fromSeq };
        // The jobs of the history a fork began with are its source's, never the fork's to kill.
        this.openJobs.clear();
        return;
      case "prompt_received":
        this.prompts++;
        this.lastTurn = { turnId: fact.turnId, ended: false, ...(fact.from ? { requestId: fact.from.requestId } : {}) };
        this.activeCommands = undefined;
        return;
      case "turn_ended":
        if (this.lastTurn?.turnId === fact.turnId) this.lastTurn.ended = true;
        this.activeCommands = undefined;
        return;
      case "command_activated":
        // A command acts in its own turn only: one recorded for a turn that is over is history.
        if (this.lastTurn?.turnId === fact.turnId && !this.lastTurn.ended)
          this.activeCommands = [...(this.activeCommands ?? []), fact];
        if (fact.hooks) this.skillHooks = [...(this.skillHooks ?? []), { path: fact.path, hooks: fact.hooks }];
        return;
      case "step_ended":
        if (fact.outcome !== "completed") return;
        for (const c of fact.calls) {
          this.openCalls.set(c.toolCallId, {
            toolCallId: c.toolCallId,
            providerCallId: c.providerCallId,
            started: false,
            awaitingPermission: false,
          });
        }
        return;
      case "permission_requested": {
        const { requestId, toolCallId, options } = fact;
        this.openQuestions.set(requestId, { kind: "permission", requestId, toolCallId, options });
        this.#patch(toolCallId, { awaitingPermission: true });
        return;
      }
      case "permission_answered":
        this.openQuestions.delete(fact.requestId);
        this.#patch(fact.toolCallId, { awaitingPermission: false });
        return;
      case "question_asked": {
        const { toolCallId, message, requestedSchema } = fact;
        this.openQuestions.set(toolCallId, { kind: "form", toolCallId, message, requestedSchema });
        return;
      }
      case "question_answered":
        this.openQuestions.delete(fact.toolCallId);
        return;
      case "tool_call_started":
        this.#patch(fact.toolCallId, { started: true });
        return;
      case "access_granted":
        this.grantedDirectories.push(fact.directory);
        return;
      case "permission_rule_added": {
        const { kind: _kind, ...rule } = fact;
        this.rules.push(rule);
        return;
      }
      case "file_seen":
        this.#seen(fact.path, fact.sha256, seq);
        return;
      case "session_rewound":
        this.#rewound(fact, seq);
        return;
      case "tool_call_finished":
        this.openCalls.delete(fact.toolCallId);
        this.sessionCost = addCost(this.sessionCost, fact.cost);
        return;
      case "tool_call_refused":
        this.openCalls.delete(fact.toolCallId);
        return;
      case "job_started":
        this.openJobs.set(fact.jobId, {
          jobId: fact.jobId,
          toolCallId: fact.toolCallId,
          host: fact.host,
          ...definedJob(fact),
          outputPath: fact.outputPath,
        });
        return;
      case "job_ended":
        this.openJobs.delete(fact.jobId);
        return;
      case "session_recovered":
        for (const c of fact.calls) this.openCalls.delete(c.toolCallId);
        // What a dead process asked is no longer anyone's to answer.
        for (const [key, question] of this.openQuestions)
          if (fact.calls.some((c) => c.toolCallId === question.toolCallId)) this.openQuestions.delete(key);
        if (fact.interruptedTurnId && this.lastTurn?.turnId === fact.interruptedTurnId) this.lastTurn.ended = true;
        return;
      default:
        return;
    }
  }

  /** The tool definitions the model is given, as journaled: the built-in ones, then MCP's. */
  modelTools(): ToolSpec[] {
    return [...this.tools, ...this.mcpTools];
  }

  /** The current value of a select config option. */
  configValue(id: string): string | undefined {
    const option = this.configOptions.find((o) => o.id === id);
    return option && option.type === "select" ? String(option.currentValue) : undefined;
  }

  /** Provider ids of calls still open (for validating a new step). */
  openProviderIds(): Set<string> {
    return new Set([...this.openCalls.values()].map((c) => c.providerCallId));
  }

  /**
   * A rewind: what it took back leaves the model's context, and with it what the model learned of
   * the files it read or wrote there: each file counts as seen as the kept records last saw it
   * (the content check then refuses one that changed since: tools/files/text-files.ts), or not at
   * all. Every sighting is before the rewind, so those it takes back are the ones after its point.
   * The rest of the state stays: the mode, config, rules and grants are facts of the session, not
   * of the conversation.
   */
  #rewound(fact: FactOf<"session_rewound">, seq: number): void {
    this.retracted = rangesOf(fact, seq);
    for (const [path, sightings] of this.seenHistory) {
      while ((sightings.at(-1)?.[0] ?? 0) > fact.toSeq) sightings.pop();
      const last = sightings.at(-1);
      if (last) this.seenFiles.set(path, last[1]);
      else {
        this.seenFiles.delete(path);
        this.seenHistory.delete(path);
      }
    }
  }

  #seen(path: string, sha256: string, seq: number): void {
    this.seenFiles.set(path, sha256);
    const sightings = this.seenHistory.get(path);
    if (!sightings) this.seenHistory.set(path, [[seq, sha256]]);
    else if (sightings.at(-1)?.[1] !== sha256) sightings.push([seq, sha256]);
  }

  /** The turn running as the records so far say: started, and neither ended nor closed by a recovery naming it. */
  runningTurn(): string | undefined {
    return this.lastTurn && !this.lastTurn.ended ? this.lastTurn.turnId : undefined;
  }

  /** True when a process died mid-turn and the next turn must first record what happened. */
  needsRecovery(): boolean {
    return this.openCalls.size > 0 || (this.lastTurn !== undefined && !this.lastTurn.ended);
  }

  #patch(toolCallId: string, change: Partial<OpenCall>): void {
    const call = this.openCalls.get(toolCallId);
    if (call) this.openCalls.set(toolCallId, { ...call, ...change });
  }
}
