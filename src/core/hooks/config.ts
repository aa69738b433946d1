/**
 * Hook configuration: every source's `hooks` key, parsed leniently (one bad entry never hides
 * the others) and merged in source order, which is the handlers' display order. Identical
 * handlers from several files run once (the first keeps its place). Project and local sources
 * are held back unless the workspace is trusted. Everything not run is reported, never dropped
 * in silence: unsupported handler types, unknown events, bad matchers, untrusted sources.
 */
import { z } from "zod";
import { sha256Hex } from "../../shared/sha256.ts";
import type { HookSource } from "../../journal/facts/index.ts";
import { userConfigRoots } from "../confinement/own-files.ts";
import { hookSourceFiles, readJsonObject, type Env } from "./config-files.ts";
import { hookEvents, isHookEvent, knownButNotFired, type HookEventName } from "./events.ts";
import { compileMatcher, type Matcher } from "./matcher.ts";
import { defined } from "../../shared/defined.ts";

/** A `type: "command"` handler, ready to run. */
export type CommandHandler = {
  hookId: string;
  event: HookEventName;
  source: HookSource;
  /** Where it is configured, e.g. `/repo/.claude/settings.json#PreToolUse[0][1]`. */
  location: string;
  displayOrder: number;
  matcher: string | undefined;
  matches: Matcher;
  /** Shell form: a `/bin/sh -c` command line. Exec form (with `args`): the program. */
  command: string;
  args?: string[];
  timeoutSec: number;
  statusMessage?: string;
  /** Block a gating event when the handler fails, times out or cannot start. */
  onFailure?: "block";
};

export type ConfigProblem = { severity: "warning" | "error"; text: string };

export type HookConfig = {
  handlers: CommandHandler[];
  /** Handlers from project and local files of a workspace that is not trusted: not run. */
  untrusted: CommandHandler[];
  problems: ConfigProblem[];
  /** `disableAllHooks` is in force: no hook runs, a skill's neither. */
  disabled?: true;
};

/** Timeouts above this many seconds are taken to be milliseconds (Gemini CLI and Qwen Code use ms). */
const MAX_TIMEOUT_SEC = 3600;

const handlerSchema = z.object({
  type: z.string(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  timeout: z.number().positive().optional(),
  statusMessage: z.string().optional(),
  async: z.boolean().optional(),
  if: z.string().optional(),
  onFailure: z.enum(["block", "allow"]).optional(),
});
type HandlerEntry = z.infer<typeof handlerSchema>;

const groupSchema = z.object({ matcher: z.string().optional(), hooks: z.array(z.unknown()) });

export type LoadOptions = { env: Env; cwd: string; trusted: boolean };

/**
 * Reads every source and returns the handlers to run, those held back, and every problem.
 * `"disableAllHooks": true` turns every hook off, with Claude Code's precedence: the last source
 * that applies (local over project over user) and sets it decides; a project or local file held
 * back in an untrusted workspace decides nothing.
 */
export function loadHookConfig({ env, cwd, trusted }: LoadOptions): HookConfig {
  const config: HookConfig = { handlers: [], untrusted: [], problems: [] };
  const seen = new Set<string>();
  let order = 0;
  let disabled = false;
  for (const source of hookSourceFiles(env, cwd)) {
    const file = readJsonObject(source.path, source.kind === "user" ? userConfigRoots(env) : [cwd]);
    if (file.state === "missing") continue;
    const held = source.kind !== "user" && !trusted;
    const problems: ConfigProblem[] = held ? [] : config.problems;
    if (file.state === "skipped") {
      // Said even when the workspace is not trusted: the file was not read at all.
      config.problems.push({
        severity: "warning",
        text: `${source.path} was not read (${file.reason}); its hooks were not loaded`,
      });
      continue;
    }
    if (file.state === "invalid") {
      problems.push({
        severity: "error",
        text: `${source.path} is not valid JSON (${file.error}); its hooks were not loaded`,
      });
      continue;
    }
    if (!held && typeof file.value.disableAllHooks === "boolean") disabled = file.value.disableAllHooks;
    for (const handler of handlersOf(source, file.value.hooks, problems)) {
      const key = dedupKey(handler);
      if (seen.has(key)) continue;
      seen.add(key);
      handler.displayOrder = order++;
      (held ? config.untrusted : config.handlers).push(handler);
    }
  }
  return disabled ? { handlers: [], untrusted: [], problems: config.problems, disabled: true } : config;
}

/**
 * The handlers of the skills registered in the session (command_activated's `hooks`, in the order
 * they were invoked), after the settings files': a skill's copy of a handler stays separate, as
 * Claude Code keeps it. Problems in them are dropped here: a skill's hooks were told when it was read.
 */
export function skillHandlers(
  skills: readonly { path: string; hooks: Record<string, unknown[]> }[],
  after: number,
): CommandHandler[] {
  let order = after;
  return skills.flatMap((skill) =>
    handlersOf({ kind: "skill", path: skill.path }, skill.hooks, []).map((h) => ({ ...h, displayOrder: order++ })),
  );
}

function handlersOf(source: HookSource, hooks: unknown, problems: ConfigProblem[]): CommandHandler[] {
  if (hooks === undefined) return [];
  const events = z.record(z.string(), z.array(z.unknown())).safeParse(hooks);
  if (!events.success) {
    problems.push({
      severity: "error",
      text: `${source.path}: "hooks" must map event names to lists of matcher groups`,
    });
    return [];
  }
  const handlers: CommandHandler[] = [];
  for (const [event, groups] of Object.entries(events.data)) {
    if (!isHookEvent(event)) {
      problems.push({
        severity: "warning",
        text: knownButNotFired.has(event)
          ? `${source.path}: verbatim does not fire ${event} hooks yet; they will not run`
          : `${source.path}: unknown hook event "${event}"; ignored`,
      });
      continue;
    }
    groups.forEach((raw, g) => {
      const where = `${source.path}#${event}[${g}]`;
      const group = groupSchema.safeParse(raw);
      if (!group.success) {
        problems.push({ severity: "error", text: `${where}: a matcher group needs a "hooks" list` });
        return;
      }
      const matcherField = (hookEvents[event] as { matcherField?: string }).matcherField;
      const compiled = compileMatcher(matcherField ? group.data.matcher : undefined);
      if (!compiled.ok) {
        problems.push({
          severity: "warning",
          text: `${where}: the matcher "${group.data.matcher}" is not a valid pattern (${compiled.error}); this group was not loaded`,
        });
        return;
      }
      group.data.hooks.forEach((rawHandler, h) => {
        const handler = commandHandler(
          source,
          event,
          `${where}[${h}]`,
          group.data.matcher,
          compiled.test,
          rawHandler,
          problems,
          [g, h],
        );
        if (handler) handlers.push(handler);
      });
    });
  }
  return handlers;
}

function commandHandler(
  source: HookSource,
  event: HookEventName,
  location: string,
  matcher: string | undefined,
  matches: Matcher,
  raw: unknown,
  problems: ConfigProblem[],
  position: [number, number],
): CommandHandler | undefined {
  const parsed = handlerSchema.safeParse(raw);
  if (!parsed.success) {
    problems.push({
      severity: "error",
      text: `${location}: not a valid hook handler (${parsed.error.issues.map((i) => `${i.path.join(".") || "handler"}: ${i.message}`).join("; ")})`,
    });
    return undefined;
  }
  const entry = parsed.data;
  if (entry.type !== "command") {
    problems.push({
      severity: "warning",
      text: `${location}: "${entry.type}" hooks are not supported (verbatim runs only "command" hooks); not run`,
    });
    return undefined;
  }
  if (!entry.command) {
    problems.push({ severity: "error", text: `${location}: a command hook needs a "command"` });
    return undefined;
  }
  if (entry.async) {
    problems.push({ severity: "warning", text: `${location}: "async" hooks are not supported yet; not run` });
    return undefined;
  }
  if (entry.if !== undefined) {
    problems.push({
      severity: "warning",
      text: `${location}: the "if" condition (${entry.if}) is not supported yet; the hook runs for every call its matcher selects`,
    });
  }
  let timeoutSec = entry.timeout ?? hookEvents[event].defaultTimeoutSec;
  if (timeoutSec > MAX_TIMEOUT_SEC) {
    problems.push({
      severity: "warning",
      text: `${location}: timeout ${timeoutSec} is over ${MAX_TIMEOUT_SEC} seconds; read as milliseconds (${timeoutSec / 1000} s)`,
    });
    timeoutSec = timeoutSec / 1000;
  }
  return {
    hookId: hookIdOf(source, event, position, entry),
    event,
    source,
    location,
    displayOrder: 0,
    matcher,
    matches,
    command: entry.command,
    ...defined({ args: entry.args }),
    timeoutSec,
    ...(entry.statusMessage ? { statusMessage: entry.statusMessage } : {}),
    ...(entry.onFailure === "block" ? { onFailure: "block" as const } : {}),
  };
}

/**
 * A handler's stable id: where it is configured and what it is. The same configuration gives
 * the same id in every run; changing the handler (its command, say) changes it.
 */
function hookIdOf(source: HookSource, event: string, position: [number, number], entry: HandlerEntry): string {
  const normalized = {
    type: entry.type,
    command: entry.command,
    args: entry.args ?? null,
    timeout: entry.timeout ?? null,
    onFailure: entry.onFailure ?? null,
  };
  const digest = sha256Hex(JSON.stringify([source.kind, source.path, event, position, normalized]));
  return `hk_${digest.slice(0, 16)}`;
}

/** Handlers that are the same wherever they are configured run once. */
const dedupKey = (h: CommandHandler) =>
  JSON.stringify([h.event, h.matcher ?? "", h.command, h.args ?? null, h.timeoutSec, h.onFailure ?? null]);

/** The handlers configured for `event` whose matcher selects `value` (all, for events without matchers). */
export function selectHandlers(
  config: Pick<HookConfig, "handlers">,
  event: HookEventName,
  value: string | undefined,
): CommandHandler[] {
  const aliases = value === undefined ? [] : (MATCHER_ALIASES[value] ?? []);
  return config.handlers.filter(
    (h) => h.event === event && (value === undefined || h.matches(value) || aliases.some((a) => h.matches(a))),
  );
}

/**
 * Claude Code's names for verbatim's tools where they differ, so that matchers written for it
 * select the same calls (hooks.md §12.2: "use Claude's names for equivalents", with aliases where
 * a tool differs). The payload still carries verbatim's name. Each handler is selected once.
 */
const MATCHER_ALIASES: Record<string, readonly string[]> = {
  Task: ["Agent"],
  // The background-job tools' earlier names (agent-conventions §3.1), whichever name the model called.
  TaskStop: ["KillShell", "KillBash"],
  TaskOutput: ["BashOutput"],
};

/** The command as shown: shell form as written, exec form as the program and its arguments. */
export const commandText = (h: Pick<CommandHandler, "command" | "args">) =>
  h.args ? [h.command, ...h.args].join(" ") : h.command;
