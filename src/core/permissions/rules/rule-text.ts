/**
 * A permission rule as users write it in Claude Code's settings files (`Bash(npm run test:*)`,
 * `Read(./.env)`, `WebFetch(domain:example.com)`, `mcp__github__*`), parsed into what it matches.
 * Pure. A rule that does not parse, or that Claude Code would never consult, is a `BadRule` with
 * the reason; the caller names it to the user and ignores it (a bad deny makes its tool ask).
 * docs/tools.md lists the syntax.
 */

export type RuleDecision = "allow" | "ask" | "deny";

/** Tools whose rules take a path pattern (Claude Code: `Read` covers the search tools, `Edit` the writing ones). */
export const PATH_RULE_TOOLS = ["Read", "Edit"] as const;
/** Tools whose path rules Claude Code never consults: their rules go on `Read` or `Edit`. */
const UNCONSULTED_PATH_TOOLS: Record<string, string> = {
  Write: "Edit",
  MultiEdit: "Edit",
  NotebookEdit: "Edit",
  Glob: "Read",
};
/** Fields a `Tool(param:value)` rule may not name: those have their own forms. */
const CONTENT_FIELDS = ["command", "file_path", "path", "notebook_path", "url"];

export type ParsedRule =
  /** Every call of the tools `tool` names (a literal name, `*`, or an `mcp__server__` glob). */
  | { form: "tool"; tool: string }
  /** Calls whose top-level scalar `param` matches `value` (`*` wildcards). Deny and ask only. */
  | { form: "param"; tool: string; param: string; value: string }
  /** `Bash(...)`: a command pattern. */
  | { form: "command"; tool: "Bash"; pattern: string }
  /** `Read(...)` / `Edit(...)`: a gitignore-style path pattern with its anchor still in it. */
  | { form: "path"; tool: "Read" | "Edit"; pattern: string }
  /** `WebFetch(domain:...)`. */
  | { form: "domain"; tool: "WebFetch"; domain: string }
  /** Any other `Tool(content)`: `Agent(Explore)`, `Skill(deploy *)`; matched against the tool's main field. */
  | { form: "content"; tool: string; content: string };

export type BadRule = { bad: string };

const NAME = /^(?:\*|[A-Za-z_][A-Za-z0-9_.-]*\*?)$/;
const PARAM = /^([A-Za-z_][A-Za-z0-9_]*):([\s\S]*)$/;

/** Claude Code's older name for the subagent tool, and verbatim's: rules may use either. */
export const canonicalTool = (name: string): string => (name === "Task" ? "Agent" : name);

/** Parses one rule as it appears in `permissions.<decision>`. */
export function parseRule(text: string, decision: RuleDecision): ParsedRule | BadRule {
  if (typeof text !== "string" || text.trim() === "") return { bad: "the rule is empty" };
  const rule = text.trim();
  const open = rule.indexOf("(");
  if (open === -1) return toolRule(rule, decision);
  if (!rule.endsWith(")")) return { bad: `"(" without a closing ")" at the end` };
  const tool = rule.slice(0, open);
  const content = rule.slice(open + 1, -1);
  if (!NAME.test(tool) || tool.includes("*")) return { bad: `"${tool}" is not a tool name` };
  if (content === "*") return toolRule(tool, decision);
  if (content.trim() === "") return { bad: `${tool}() has nothing between the parentheses` };
  const name = canonicalTool(tool);
  const param = PARAM.exec(content);
  if (name === "WebFetch") {
    if (param?.[1] !== "domain") return { bad: "WebFetch rules name a host: WebFetch(domain:example.com)" };
    const domain = param[2]!.trim().toLowerCase();
    if (domain === "" || /[/:\s]/.test(domain)) return { bad: `"${param[2]}" is not a host name` };
    return { form: "domain", tool: "WebFetch", domain };
  }
  if (param && isParamRule(name, param[1]!)) {
    if (CONTENT_FIELDS.includes(param[1]!))
      return { bad: `${param[1]} is matched by the ${name}(pattern) form, not ${name}(${param[1]}:...)` };
    if (decision === "allow") return { bad: `${name}(${param[1]}:...) rules work in deny and ask only` };
    return { form: "param", tool: name, param: param[1]!, value: param[2]! };
  }
  if (name === "Bash") return { form: "command", tool: "Bash", pattern: content };
  if (name === "Read" || name === "Edit") return { form: "path", tool: name, pattern: content };
  const instead = UNCONSULTED_PATH_TOOLS[name];
  if (instead) return { bad: `path rules on ${name} are never consulted; write ${instead}(${content})` };
  return { form: "content", tool: name, content };
}

/** `Tool`, `*`, `mcp__server`, `mcp__server__*`, `mcp__server__tool`. */
function toolRule(name: string, decision: RuleDecision): ParsedRule | BadRule {
  if (!NAME.test(name)) return { bad: `"${name}" is not a tool name` };
  if (name.includes("*")) {
    const literalServer = /^mcp__[^*]+__\*$/.test(name);
    if (!literalServer && decision === "allow")
      return { bad: `"${name}": an allow rule's wildcard needs a literal mcp__<server>__ prefix` };
    if (!literalServer && name !== "*" && !name.startsWith("mcp__"))
      return { bad: `"${name}": only "*" and mcp__ names may end in *` };
  }
  return { form: "tool", tool: canonicalTool(name) };
}

/**
 * Whether `Tool(key:value)` names one of the tool's input fields rather than a pattern:
 * `Bash(run_in_background:true)` is one, `Bash(ls:*)` (the legacy prefix form) is not.
 */
function isParamRule(tool: string, key: string): boolean {
  if (CONTENT_FIELDS.includes(key)) return tool !== "Bash" || key === "command";
  const known = KNOWN_FIELDS[tool];
  return known ? known.includes(key) : tool.startsWith("mcp__");
}

/** The top-level scalar input fields of the tools a `Tool(param:value)` rule may name. */
const KNOWN_FIELDS: Record<string, string[]> = {
  Bash: ["run_in_background", "dangerouslyDisableSandbox", "timeout", "description"],
  Read: ["offset", "limit", "pages"],
  Edit: ["replace_all"],
  Grep: ["pattern", "glob", "type", "output_mode", "multiline"],
  Agent: ["subagent_type", "model", "run_in_background", "isolation", "description"],
};
