/**
 * The session fold as data, for the replay cache's state head: written by `snapshotFold` field by
 * field, read back by `restoreFold` only once the text parses against `foldSnapshot` (every
 * field named, of its type, and nothing else), so a damaged or forged head cannot set a field the
 * fold does not have or give one a value of another type. The text is what the cache kept before
 * (maps as `{"$verbatimMap": entries}`, fields in the fold's order), so stored states stay valid.
 * What a session may do is then adopted from its facts anyway (replay/authority.ts). Pure.
 */
import { z } from "zod";
import { configOption, money, sessionMode } from "../journal/facts/display-shapes.ts";
import { availableCommand } from "../journal/facts/commands.ts";
import { contextGiven } from "../journal/facts/context.ts";
import { commandActivated } from "../journal/facts/commands.ts";
import { permissionRuleAdded, permissionSettingsRead } from "../journal/facts/permissions.ts";
import { fileToRestore } from "../journal/facts/restore.ts";
import { retractedRange } from "../journal/facts/rewind.ts";
import { toolSpec } from "../journal/facts/session.ts";
import type { SessionStateFold } from "./state.ts";

const mapOf = <V extends z.ZodType>(value: V) =>
  z.strictObject({ $verbatimMap: z.array(z.tuple([z.string(), value])) });

const openCall = z.strictObject({
  toolCallId: z.string(),
  providerCallId: z.string(),
  started: z.boolean(),
  awaitingPermission: z.boolean(),
});

export const foldSnapshot = z.strictObject({
  cwd: z.string(),
  additionalDirectories: z.array(z.string()),
  parentSessionId: z.string().optional(),
  subagentType: z.string().optional(),
  forkOf: z.strictObject({ sessionId: z.string(), seq: z.number().int() }).optional(),
  systemPrompt: z.string(),
  tools: z.array(toolSpec),
  mcpTools: z.array(toolSpec),
  commands: z.array(availableCommand).optional(),
  context: contextGiven.omit({ kind: true, messageId: true }).strict().optional(),
  loadedInstructions: z.array(z.string()).optional(),
  activeCommands: z.array(commandActivated.strict()).optional(),
  skillHooks: z
    .array(z.strictObject({ path: z.string(), hooks: z.record(z.string(), z.array(z.unknown())) }))
    .optional(),
  contextUsage: z.strictObject({ used: z.number(), size: z.number() }).optional(),
  sessionCost: money.optional(),
  modeId: z.string(),
  availableModes: z.array(sessionMode),
  configOptions: z.array(configOption),
  title: z.string().optional(),
  prompts: z.number().int(),
  /** `requestId` only for a turn a controller's prompt started (absent in states stored before it was folded). */
  lastTurn: z.strictObject({ turnId: z.string(), ended: z.boolean(), requestId: z.string().optional() }).optional(),
  openCalls: mapOf(openCall),
  rules: z.array(permissionRuleAdded.omit({ kind: true })),
  grantedDirectories: z.array(z.string()),
  seenFiles: mapOf(z.string()),
  seenHistory: mapOf(z.array(z.tuple([z.number().int(), z.string()]))),
  retracted: z.array(retractedRange).optional(),
  holders: z.array(z.strictObject({ seq: z.number().int(), host: z.string(), cwd: z.string() })),
  restore: z
    .strictObject({
      restoreId: z.string(),
      toMessageId: z.string().optional(),
      files: z.array(fileToRestore.strict()),
      commandsRun: z.number().int(),
      prompts: z.number().int(),
      started: z.boolean(),
      ended: z.boolean(),
    })
    .optional(),
  lastSeq: z.number().int(),
  // Authority: a load from the cache takes these from the facts instead (replay/authority.ts).
  permissionSettings: z.strictObject({ fact: permissionSettingsRead, seq: z.number().int() }).optional(),
  trustAsked: z.literal(true).optional(),
  /** Absent in states stored before background jobs: none were open. */
  openJobs: mapOf(
    z.strictObject({
      jobId: z.string(),
      toolCallId: z.string(),
      host: z.string(),
      pid: z.number().int().optional(),
      startTime: z.string().optional(),
      terminalId: z.string().optional(),
      outputPath: z.string(),
    }),
  ).optional(),
});
export type FoldSnapshot = z.infer<typeof foldSnapshot>;

/** Whether `text` is a fold snapshot `restoreFold` takes. */
export function isFoldSnapshot(text: string): boolean {
  try {
    return foldSnapshot.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
}

/** The fold as the state head's text keeps it. */
export function snapshotFold(fold: SessionStateFold): string {
  const snapshot: FoldSnapshot = {
    cwd: fold.cwd,
    additionalDirectories: fold.additionalDirectories,
    parentSessionId: fold.parentSessionId,
    subagentType: fold.subagentType,
    forkOf: fold.forkOf,
    systemPrompt: fold.systemPrompt,
    tools: fold.tools,
    mcpTools: fold.mcpTools,
    commands: fold.commands,
    context: fold.context,
    loadedInstructions: fold.loadedInstructions,
    activeCommands: fold.activeCommands,
    skillHooks: fold.skillHooks,
    contextUsage: fold.contextUsage,
    sessionCost: fold.sessionCost,
    modeId: fold.modeId,
    availableModes: fold.availableModes,
    configOptions: fold.configOptions,
    title: fold.title,
    prompts: fold.prompts,
    lastTurn: fold.lastTurn,
    openCalls: { $verbatimMap: [...fold.openCalls] },
    rules: fold.rules,
    grantedDirectories: fold.grantedDirectories,
    seenFiles: { $verbatimMap: [...fold.seenFiles] },
    seenHistory: { $verbatimMap: [...fold.seenHistory] },
    retracted: fold.retracted,
    holders: fold.holders,
    restore: fold.restore,
    lastSeq: fold.lastSeq,
    permissionSettings: fold.permissionSettings,
    trustAsked: fold.trustAsked,
    ...(fold.openJobs.size > 0 ? { openJobs: { $verbatimMap: [...fold.openJobs] } } : {}),
  };
  return JSON.stringify(snapshot);
}

/**
 * Sets a fresh fold to what `snapshotFold` wrote (its maps and lists filled in place: others may
 * hold them). Throws when the text is not such a snapshot; the fold is then unchanged.
 */
export function restoreFold(fold: SessionStateFold, text: string): void {
  const s = foldSnapshot.parse(JSON.parse(text));
  fold.cwd = s.cwd;
  fold.additionalDirectories = s.additionalDirectories;
  fold.parentSessionId = s.parentSessionId;
  fold.subagentType = s.subagentType;
  fold.forkOf = s.forkOf;
  fold.systemPrompt = s.systemPrompt;
  fold.tools = s.tools;
  fold.mcpTools = s.mcpTools;
  fold.commands = s.commands;
  fold.context = s.context;
  fold.loadedInstructions = s.loadedInstructions;
  fold.activeCommands = s.activeCommands;
  fold.skillHooks = s.skillHooks;
  fold.contextUsage = s.contextUsage;
  fold.sessionCost = s.sessionCost;
  fold.modeId = s.modeId;
  fold.availableModes = s.availableModes;
  fold.configOptions = s.configOptions;
  fold.title = s.title;
  fold.prompts = s.prompts;
  fold.lastTurn = s.lastTurn;
  refill(fold.openCalls, s.openCalls.$verbatimMap);
  fold.rules.splice(0, fold.rules.length, ...s.rules);
  fold.grantedDirectories.splice(0, fold.grantedDirectories.length, ...s.grantedDirectories);
  refill(fold.seenFiles, s.seenFiles.$verbatimMap);
  refill(fold.seenHistory, s.seenHistory.$verbatimMap);
  fold.retracted = s.retracted;
  fold.holders.splice(0, fold.holders.length, ...s.holders);
  fold.restore = s.restore ? { ...s.restore, toMessageId: s.restore.toMessageId } : undefined;
  fold.lastSeq = s.lastSeq;
  // Authority: a load from the cache takes these from the facts instead (replay/authority.ts).
  fold.permissionSettings = s.permissionSettings;
  fold.trustAsked = s.trustAsked;
  refill(fold.openJobs, s.openJobs?.$verbatimMap ?? []);
}

function refill<V>(map: Map<string, V>, entries: readonly [string, V][]): void {
  map.clear();
  for (const [key, value] of entries) map.set(key, value);
}
