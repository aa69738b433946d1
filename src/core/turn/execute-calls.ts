/**
 * Runs a validated step's calls: every card is announced first (recorded, then shown), then
 * each call passes the gate and runs in order. A call that never runs ends `failed` with the
 * reason; a cancel refuses every call not yet run (a question answered `cancelled` is such a cancel).
 */
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { isAbsolute } from "node:path";
import { textContent } from "../../journal/facts/display-shapes.ts";
import type { AcceptedCall } from "../../journal/facts/index.ts";
import { CANCELLED_BEFORE_RUN, type GateDecision } from "../permissions/call-gate.ts";
import { parseInput } from "../tools/registry.ts";
import type { AskedAnswer, FormAnswer, QuestionForm, Tool, ToolOutcome } from "../tools/tool.ts";
import { checkFormAnswer } from "../tools/form-answer.ts";
import { PendingWrites } from "./pending-writes.ts";
import { skippedNotice, type SkippedFile } from "../confinement/own-files.ts";
import { onDemandInstructions } from "../instructions/on-demand.ts";
import { pathSkills } from "../instructions/path-skills.ts";
import type { UserCommand } from "../commands/command-files.ts";
import { mintId } from "../ids.ts";
import type { TurnContext } from "./turn-context.ts";
import { defined } from "../../shared/defined.ts";
import { homeDir } from "../../shared/home-dir.ts";
import { userConfigFolder } from "../../shared/user-config-folder.ts";
import { dataHome } from "../../journal/paths.ts";
import type { Confinement } from "../sandbox/confinement.ts";
import { commandSandbox, type CommandSandbox } from "../sandbox/command-sandbox.ts";
import { sandboxRuleInputs } from "../permissions/sandbox-confinement.ts";

type Prepared = { call: AcceptedCall; tool: Tool; input: unknown } | { call: AcceptedCall; error: string };

export async function executeCalls(ctx: TurnContext, calls: AcceptedCall[]): Promise<void> {
  const prepared: Prepared[] = [];
  for (const call of calls) prepared.push(await announce(ctx, call));
  for (const p of prepared) await executeCall(ctx, p);
}

/** One announced call: refused (cancelled, halted, by the gate), failed (it could not be prepared) or run. */
async function executeCall(ctx: TurnContext, p: Prepared): Promise<void> {
  const { toolCallId } = p.call;
  if (ctx.signal.aborted) return await refuseCancelled(ctx, toolCallId);
  const halt = ctx.hooks?.halted();
  if (halt !== undefined) return await refuseHalted(ctx, toolCallId, halt);
  if ("error" in p) return await recordUnprepared(ctx, toolCallId, p.error);
  const roots = [...ctx.roots, ...ctx.state.grantedDirectories, ...jobOutputRoots(ctx, p.tool, p.input)];
  const decision = await ctx.gate({ toolCallId, tool: p.tool, input: p.input, signal: ctx.signal, roots }, ctx);
  if (!decision.run) return await refuseByGate(ctx, toolCallId, decision);
  // The gate may have waited on the user: a cancel meanwhile still keeps the call from running.
  if (ctx.signal.aborted) return await refuseCancelled(ctx, toolCallId);
  await runAllowed(ctx, p, decision, roots);
}

/** A call whose tool is unknown, whose input does not parse or that cannot succeed: failed with the reason. */
async function recordUnprepared(ctx: TurnContext, toolCallId: string, error: string): Promise<void> {
  await ctx.record({
    kind: "tool_call_finished",
    toolCallId,
    status: "failed",
    content: [textContent(error)],
    result: { text: error, isError: true },
  });
}

async function refuseByGate(
  ctx: TurnContext,
  toolCallId: string,
  decision: Extract<GateDecision, { run: false }>,
): Promise<void> {
  await recordRefused(ctx, toolCallId, decision);
  // The user's cancel, told by the answer: the calls after this one are refused as cancelled, and the turn ends.
  if (decision.endsTurn) ctx.cancel();
}

/** Runs a call the gate allowed (with the input it settled on), then records what came of it. */
async function runAllowed(
  ctx: TurnContext,
  p: Extract<Prepared, { tool: Tool }>,
  decision: Extract<GateDecision, { run: true }>,
  roots: string[],
): Promise<void> {
  const { toolCallId } = p.call;
  await ctx.record({ kind: "tool_call_started", toolCallId });
  const started = performance.now();
  const outcome = await run(
    ctx,
    p.tool,
    decision.input,
    toolCallId,
    [...roots, ...(decision.roots ?? [])],
    decision.hidden,
    decision.sandbox,
  );
  // PostToolUse hooks settle before the result is recorded: what they add reaches the model with it.
  if (ctx.hooks && !ctx.signal.aborted) {
    await ctx.hooks.postToolUse(
      {
        toolCallId,
        tool: p.tool,
        input: decision.input,
        ...(decision.input !== p.input ? { originalInput: p.input } : {}),
        outcome,
        durationMs: Math.round(performance.now() - started),
        interrupted: false,
      },
      ctx.signal,
    );
  }
  await recordOutcome(ctx, toolCallId, outcome);
}

/** What a call that ran brought: its plan, the files it read (and the instructions they bring), its result. */
async function recordOutcome(ctx: TurnContext, toolCallId: string, outcome: ToolOutcome): Promise<void> {
  if (outcome.plan) await ctx.record({ kind: "plan_updated", entries: outcome.plan });
  for (const seen of outcome.seen ?? [])
    await ctx.record({ kind: "file_seen", toolCallId, path: seen.path, sha256: seen.sha256 });
  if (outcome.seen?.length) await loadInstructions(ctx, toolCallId, outcome.seen);
  await ctx.record({
    kind: "tool_call_finished",
    toolCallId,
    status: outcome.status,
    content: outcome.content,
    ...defined({ rawOutput: outcome.rawOutput }),
    result: outcome.result,
    ...defined({ cost: outcome.cost }),
  });
}

/** The instruction files the files a call read bring (a subfolder's CLAUDE.md, a matching rule): recorded with their text. */
async function loadInstructions(ctx: TurnContext, toolCallId: string, seen: { path: string }[]): Promise<void> {
  const skipped: SkippedFile[] = [];
  const loaded = await onDemandInstructions({
    paths: seen.map((s) => s.path),
    cwd: ctx.cwd,
    roots: ctx.roots,
    loaded: ctx.state.loadedInstructions ?? [],
    env: process.env,
    skipped,
    excludes: ctx.state.context?.excludes ?? [],
  });
  loaded.push(
    ...pathSkills({
      paths: seen.map((s) => s.path),
      cwd: ctx.cwd,
      roots: ctx.roots,
      skills: (ctx.state.context?.skills ?? []).filter((s) => s.paths),
      loaded: ctx.state.loadedInstructions ?? [],
      env: process.env,
      skipped,
    }),
  );
  for (const { source, text } of loaded)
    await ctx.record({ kind: "instructions_loaded", messageId: mintId("msg"), toolCallId, source, text });
  const notice = skippedNotice(skipped);
  if (notice) await ctx.record({ kind: "notice_shown", messageId: mintId("msg"), ...notice });
}

/**
 * A reading call whose every path is one of the session's job output files (the file a Bash result
 * named) may read there as in the session's own directories: the model reads what its own command printed.
 */
function jobOutputRoots(ctx: TurnContext, tool: Tool, input: unknown): string[] {
  if (!ctx.jobs || tool.access !== "read") return [];
  const paths = tool.locations(input).map((l) => l.path);
  const roots = paths.map((path) => ctx.jobs?.outputRoot(path));
  return paths.length > 0 && roots.every((r) => r !== undefined) ? [...new Set(roots as string[])] : [];
}

async function announce(ctx: TurnContext, call: AcceptedCall): Promise<Prepared> {
  const tool = ctx.tools.get(call.name);
  if (!tool) {
    const error = `Unknown tool "${call.name}". Available tools: ${ctx.toolSpecs.map((t) => t.name).join(", ")}.`;
    await recordCard(ctx, call, { title: call.name, kind: "other", locations: [], content: [] });
    return { call, error };
  }
  const parsed = parseInput(tool, call.input);
  if (!parsed.ok) {
    await recordCard(ctx, call, { title: tool.name, kind: tool.kind, locations: [], content: [] });
    return { call, error: parsed.message };
  }
  const shown = { cwd: ctx.cwd, roots: ctx.roots, host: ctx.host };
  const prepared = tool.prepare
    ? await tool.prepare(parsed.input, { ...shown, seenFiles: ctx.state.seenFiles }).catch(() => ({ content: [] }))
    : { content: tool.preview ? await tool.preview(parsed.input, shown).catch(() => []) : [] };
  await recordCard(ctx, call, {
    title: tool.title(parsed.input),
    kind: tool.kind,
    // ACP locations are absolute paths; a relative one (which the tool will refuse) is not shown.
    locations: tool.locations(parsed.input).filter((l) => isAbsolute(l.path)),
    content: prepared.content,
  });
  // A call that cannot succeed fails without a question (its card is shown first, as every call's is).
  if ("problem" in prepared && prepared.problem !== undefined) return { call, error: prepared.problem };
  return { call, tool, input: parsed.input };
}

async function recordCard(
  ctx: TurnContext,
  call: AcceptedCall,
  shown: { title: string; kind: Tool["kind"]; locations: ReturnType<Tool["locations"]>; content: ToolCallContent[] },
): Promise<void> {
  await ctx.record({
    kind: "tool_call_announced",
    toolCallId: call.toolCallId,
    name: call.name,
    title: shown.title,
    toolKind: shown.kind,
    rawInput: call.input,
    locations: shown.locations,
    content: shown.content,
  });
}

async function run(
  ctx: TurnContext,
  tool: Tool,
  input: unknown,
  toolCallId: string,
  roots: string[],
  hidden?: (path: string) => boolean,
  confinement?: Confinement,
): Promise<ToolOutcome> {
  const envFile = ctx.hooks?.envFile();
  const sandbox = confinement ? sandboxFor(ctx, toolCallId, roots, confinement, envFile) : undefined;
  // What the tool reports as it runs is in line at once; a failure to record it fails the turn, not the tool.
  const progressed = new PendingWrites();
  let outcome: ToolOutcome;
  try {
    outcome = await tool.run(input, {
      sessionId: ctx.sessionId,
      toolCallId,
      cwd: ctx.cwd,
      roots,
      signal: ctx.signal,
      host: ctx.host,
      commandEnv: ctx.commandEnv,
      seenFiles: ctx.state.seenFiles,
      progress: (content) => progressed.add(ctx.record({ kind: "tool_call_progressed", toolCallId, content })),
      ...(ctx.host.askForm ? { ask: (form: QuestionForm) => askUser(ctx, toolCallId, form) } : {}),
      ...defined({ subagents: ctx.subagents, skills: ctx.skills, jobs: ctx.jobs }),
      ...(ctx.activateCommand ? { activate: (command: UserCommand) => ctx.activateCommand!(command, toolCallId) } : {}),
      ...(envFile ? { envFile } : {}),
      ...defined({ hidden, sandbox }),
    });
  } catch (error) {
    const message = `${tool.name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
    outcome = { status: "failed", content: [textContent(message)], result: { text: message, isError: true } };
  }
  await progressed.settled();
  return outcome;
}

/** The OS sandbox of one command call, as the gate decided it (src/core/sandbox/). */
function sandboxFor(
  ctx: TurnContext,
  toolCallId: string,
  roots: string[],
  confinement: Confinement,
  envFile: string | undefined,
): CommandSandbox {
  const env = process.env;
  return commandSandbox({
    confinement,
    toolCallId,
    record: ctx.record,
    policy: {
      ...sandboxRuleInputs(ctx.state),
      roots,
      cwd: ctx.cwd,
      home: homeDir(env),
      ownFolders: [userConfigFolder(env), dataHome(env)],
      ownReadable: envFile ? [envFile] : [],
    },
  });
}

/** Journals the question, puts it to the client, and journals how it ended (journal first, then ask). */
async function askUser(ctx: TurnContext, toolCallId: string, form: QuestionForm): Promise<AskedAnswer> {
  await ctx.record({
    kind: "question_asked",
    toolCallId,
    message: form.message,
    requestedSchema: form.requestedSchema,
  });
  let answer: AskedAnswer;
  try {
    const response = await ctx.host.askForm!({ ...form, toolCallId }, ctx.signal);
    const checked: AskedAnswer =
      response.action === "cancel" ? { action: "cancel", cancelledBy: "client" } : checkedAnswer(form, response);
    answer = { ...checked, ...defined({ answeredBy: response.answeredBy }) };
  } catch (error) {
    answer = ctx.signal.aborted
      ? { action: "cancel", cancelledBy: "turn" }
      : { action: "cancel", cancelledBy: "client", error: error instanceof Error ? error.message : String(error) };
  }
  await ctx.record({ kind: "question_answered", toolCallId, ...answer });
  return answer;
}

/**
 * An accepted answer as the form allows it (form-answer.ts): what is journaled, shown on the card
 * and given to the tool is this one value. One that does not fit counts as declined, saying why.
 */
function checkedAnswer(form: QuestionForm, response: FormAnswer): AskedAnswer {
  if (response.action !== "accept") return response;
  const checked = checkFormAnswer(form.requestedSchema, response.content);
  return checked.ok
    ? { action: "accept", content: checked.content }
    : { action: "decline", error: `the answer did not fit the form (${checked.reason})` };
}

export async function refuseCancelled(ctx: Pick<TurnContext, "record">, toolCallId: string): Promise<void> {
  await recordRefused(ctx, toolCallId, CANCELLED_BEFORE_RUN);
}

/** A call the gate (or a cancel) refused: recorded with what the model is told. */
function recordRefused(
  ctx: Pick<TurnContext, "record">,
  toolCallId: string,
  decision: Pick<Extract<GateDecision, { run: false }>, "by" | "reason" | "modelText">,
): Promise<void> {
  return ctx.record({
    kind: "tool_call_refused",
    toolCallId,
    by: decision.by,
    reason: decision.reason,
    result: { text: decision.modelText, isError: true },
  });
}

async function refuseHalted(ctx: Pick<TurnContext, "record">, toolCallId: string, stopReason: string): Promise<void> {
  await ctx.record({
    kind: "tool_call_refused",
    toolCallId,
    by: "hook",
    reason: `a hook stopped the turn: ${stopReason}`,
    result: { text: "A hook stopped the turn before this call ran; it did not run.", isError: true },
  });
}
