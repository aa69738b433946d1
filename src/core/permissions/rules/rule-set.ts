/**
 * Deciding a call by the rules in force: deny, then ask, then allow; within each, the first rule
 * that matches (specificity plays no part). A deny or an ask holds when it matches any part of
 * the call (one command of a compound, one path, a link or its target); an allow only when every
 * part is covered by an allow rule. Pure: the rules come from recorded facts, the call's parts
 * (its paths, the commands of its command line) from the gate.
 */
import type { PermissionRule } from "../../../journal/facts/index.ts";
import { commandMatches, type SimpleCommand } from "./command-match.ts";
import { domainMatches } from "./domain-match.ts";
import { pathMatches, type PathAnchors } from "./path-match.ts";
import { canonicalTool, parseRule, type ParsedRule, type RuleDecision } from "./rule-text.ts";

/**
 * Where a rule comes from: a settings file (its scope and path), an answer in this session, or
 * the front matter of a command or skill acting in the current turn (`command`, its file's path).
 */
export type RuleSource = { scope: "managed" | "user" | "project" | "local" | "session" | "command"; path?: string };

type Legacy = { form: "exact"; tool: string; scope?: string };
export type RuleEntry = {
  decision: RuleDecision;
  text: string;
  source: RuleSource;
  parsed: ParsedRule | Legacy;
  anchors: PathAnchors;
};
/** A rule that does not parse: named to the user, never applied; a bad deny makes `tool` (every tool, if none can be told) ask. */
export type BadRuleEntry = { decision: RuleDecision; text: string; source: RuleSource; reason: string; tool?: string };

export type RuleSet = {
  rules: RuleEntry[];
  bad: BadRuleEntry[];
  /** Why every call asks (a settings file that could not be read: its denies are unknown), if one does. */
  askAll?: string;
};

/** A command line as the shell parser read it: its simple commands, or why it could not be read. */
export type CommandReading = { parts: SimpleCommand[]; redirects: string[] } | { unreadable: string };

/**
 * A path a call reads or writes: the path and where its links lead (absolute). `denyOnly`: a path
 * a command names (a file `cat` reads, a redirection's target inside the session's directories),
 * which deny and ask rules check and the command's own allow covers. A redirection's target
 * outside the session's directories needs an `Edit` allow as well.
 */
export type PathUse = { paths: string[]; denyOnly?: boolean; byCommand?: boolean };

/** A call as the rules see it. Paths are absolute; each path lists itself and where its links lead. */
export type CallSubject = {
  tool: string;
  input: unknown;
  reads: PathUse[];
  writes: PathUse[];
  command?: CommandReading;
  host?: string;
  /** The tool's own rule scope (the exact rules of older "always" answers compare it). */
  scope?: string;
};

export type RuleVerdict =
  | { decision: RuleDecision; rules: RuleEntry[] }
  | { decision: "ask"; rules: []; bad?: BadRuleEntry; askAll?: string };

/** The rule entries of an answer recorded in this session (older answers: the exact tool and scope). */
export function sessionRuleEntry(rule: PermissionRule, anchors: PathAnchors): RuleEntry | BadRuleEntry {
  const source: RuleSource = { scope: "session" };
  const decision = rule.decision;
  if (rule.rule === undefined) {
    const text = rule.scope === undefined ? rule.toolName : `${rule.toolName}(${rule.scope})`;
    return { decision, text, source, anchors, parsed: { form: "exact", tool: rule.toolName, ...optional(rule.scope) } };
  }
  return ruleEntry(rule.rule, decision, source, anchors);
}

const optional = (scope: string | undefined) => (scope === undefined ? {} : { scope });

/** One rule of a settings file, parsed (or the reason it is bad). */
export function ruleEntry(
  text: string,
  decision: RuleDecision,
  source: RuleSource,
  anchors: PathAnchors,
): RuleEntry | BadRuleEntry {
  const parsed = parseRule(text, decision);
  if ("bad" in parsed) {
    const named = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(text)?.[1];
    return { decision, text, source, reason: parsed.bad, ...(named ? { tool: canonicalTool(named) } : {}) };
  }
  return { decision, text, source, anchors, parsed };
}

export const isBad = (entry: RuleEntry | BadRuleEntry): entry is BadRuleEntry => "reason" in entry;

/** What the rules say of the call: a decision and the rules that made it, or undefined when none applies. */
export function judge(set: RuleSet, subject: CallSubject): RuleVerdict | undefined {
  const tool = canonicalTool(subject.tool);
  const units = unitsOf(subject);
  for (const decision of ["deny", "ask"] as const) {
    const hit = set.rules.find((r) => r.decision === decision && units.some((u) => covers(r, tool, subject, u)));
    if (hit) return { decision, rules: [hit] };
  }
  if (set.askAll !== undefined) return { decision: "ask", rules: [], askAll: set.askAll };
  const badDeny = set.bad.find((b) => b.decision === "deny" && (b.tool === undefined || toolNameMatches(b.tool, tool)));
  if (badDeny) return { decision: "ask", rules: [], bad: badDeny };
  const allows = set.rules.filter((r) => r.decision === "allow");
  const used: RuleEntry[] = [];
  for (const unit of units) {
    if ((unit.kind === "write" || unit.kind === "read") && unit.denyOnly) continue;
    const rule = allows.find((r) => covers(r, tool, subject, unit));
    if (!rule) return undefined;
    if (!used.includes(rule)) used.push(rule);
  }
  return used.length > 0 ? { decision: "allow", rules: used } : undefined;
}

/** One part of a call a rule may cover. */
type Unit =
  | { kind: "call" }
  | { kind: "command"; command: SimpleCommand }
  | { kind: "unreadable" }
  | ({ kind: "read" } & PathUse)
  | ({ kind: "write" } & PathUse)
  | { kind: "host"; host: string };

const READ_FAMILY = new Set(["Read", "Grep", "Glob", "LSP"]);

function unitsOf(subject: CallSubject): Unit[] {
  const units: Unit[] = [];
  if (subject.command) {
    if ("unreadable" in subject.command) units.push({ kind: "unreadable" });
    else units.push(...subject.command.parts.map((command) => ({ kind: "command" as const, command })));
  }
  units.push(...subject.reads.map((use) => ({ kind: "read" as const, ...use })));
  units.push(...subject.writes.map((w) => ({ kind: "write" as const, ...w })));
  if (subject.host !== undefined) units.push({ kind: "host", host: subject.host });
  if (units.length === 0) units.push({ kind: "call" });
  return units;
}

/** `*`, `mcp__server` (every tool of the server), `mcp__server__*`, or a literal name. */
function toolNameMatches(pattern: string, tool: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith("*")) return tool.startsWith(pattern.slice(0, -1));
  if (pattern === tool) return true;
  return /^mcp__[^_]+(?:_[^_]+)*$/.test(pattern) && !pattern.slice(5).includes("__") && tool.startsWith(`${pattern}__`);
}

function covers(rule: RuleEntry, tool: string, subject: CallSubject, unit: Unit): boolean {
  const p = rule.parsed;
  const { decision } = rule;
  switch (p.form) {
    case "exact":
      return canonicalTool(p.tool) === tool && (p.scope === undefined || p.scope === subject.scope);
    case "tool":
      if (unit.kind === "read" && READ_FAMILY.has(tool)) return p.tool === "Read" || toolNameMatches(p.tool, tool);
      if (unit.kind === "write")
        return unit.byCommand ? p.tool === "Edit" : p.tool === "Edit" || toolNameMatches(p.tool, tool);
      if (unit.kind === "read" && unit.byCommand) return p.tool === "Read";
      return toolNameMatches(p.tool, tool);
    case "param":
      return toolNameMatches(p.tool, tool) && paramMatches(subject.input, p.param, p.value);
    case "command":
      if (tool !== "Bash") return false;
      if (unit.kind === "command")
        return commandMatches(p.pattern, unit.command, decision === "allow" ? "allow" : "deny");
      return false;
    case "path":
      if (unit.kind === "read")
        return (
          p.tool === "Read" && (READ_FAMILY.has(tool) || tool === "Bash") && pathsMatch(p.pattern, unit.paths, rule)
        );
      // A Read deny or ask also keeps writes off the path; an Edit rule covers every writing tool.
      if (unit.kind === "write")
        return (p.tool === "Edit" || decision !== "allow") && pathsMatch(p.pattern, unit.paths, rule);
      return false;
    case "domain":
      return tool === "WebFetch" && unit.kind === "host" && domainMatches(p.domain, unit.host);
    case "content":
      return toolNameMatches(p.tool, tool) && contentMatches(tool, p.content, subject.input);
  }
}

/** Every name of the path must match for an allow; any one for a deny or an ask. */
function pathsMatch(pattern: string, paths: string[], rule: RuleEntry): boolean {
  const match = (path: string) => pathMatches(pattern, path, rule.anchors, rule.decision);
  return rule.decision === "allow" ? paths.every(match) : paths.some(match);
}

const starPattern = (value: string) =>
  new RegExp(
    `^${value
      .split("*")
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join("[\\s\\S]*")}$`,
  );

function paramMatches(input: unknown, param: string, value: string): boolean {
  if (typeof input !== "object" || input === null) return false;
  const actual = (input as Record<string, unknown>)[param];
  if (actual === undefined || (typeof actual === "object" && actual !== null)) return false;
  return starPattern(value).test(String(actual));
}

/** The field a `Tool(content)` rule names: a subagent's type, a skill's name and arguments. */
const CONTENT_FIELD: Record<string, (input: Record<string, unknown>) => unknown> = {
  Agent: (i) => i.subagent_type,
  Skill: (i) => [i.skill, i.args].filter((v) => typeof v === "string" && v !== "").join(" "),
};

function contentMatches(tool: string, content: string, input: unknown): boolean {
  const field = CONTENT_FIELD[tool];
  if (!field || typeof input !== "object" || input === null) return false;
  const value = field(input as Record<string, unknown>);
  if (typeof value !== "string" || value === "") return false;
  // `Skill(name *)`: the name alone, or with arguments after a space.
  if (content.endsWith(" *") && value === content.slice(0, -2)) return true;
  return starPattern(content).test(value);
}
