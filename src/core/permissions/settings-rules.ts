/**
 * The permission keys of the settings files (settings-files.ts): read into the fact a session
 * records (`permission_settings_read`), and from that fact (never from the files) into the rules
 * the gate decides by. `permissions.allow`, `ask`, `deny`, `additionalDirectories`,
 * `defaultMode`, `sandbox` (src/core/sandbox/), and managed `allowManagedPermissionRulesOnly`; verbatim's own config files also
 * give their top-level `defaultMode`. Project and local allow rules, directories and modes hold
 * only in a trusted workspace; their deny and ask rules always hold.
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import type {
  CommandActivated,
  FactOf,
  PermissionRule,
  PermissionSettingsFile,
  PermissionSettingsRead,
} from "../../journal/facts/index.ts";
import { sandboxSettings } from "../../journal/facts/index.ts";
import { homeDir } from "../../shared/home-dir.ts";
import { readSettingsFiles, type SettingsFile } from "../config/settings-files.ts";
import type { PathAnchors } from "./rules/path-match.ts";
import {
  isBad,
  ruleEntry,
  sessionRuleEntry,
  type BadRuleEntry,
  type RuleEntry,
  type RuleSet,
} from "./rules/rule-set.ts";
import type { RuleDecision } from "./rules/rule-text.ts";

type Env = Record<string, string | undefined>;

const DECISIONS = ["allow", "ask", "deny"] as const;

/** The fact for this host's files as they are now (`trusted`: whether the workspace is). */
export function readPermissionSettings(
  env: Env,
  cwd: string,
  trusted: boolean,
  host: string,
): FactOf<"permission_settings_read"> {
  const files: PermissionSettingsFile[] = [];
  const unread: PermissionSettingsRead["unread"] = [];
  for (const file of readSettingsFiles(env, cwd)) {
    if (file.state === "unread") unread.push({ path: file.path, scope: file.scope, reason: file.reason });
    else files.push(permissionKeys(file));
  }
  return { kind: "permission_settings_read", host, cwd, home: homeDir(env), trusted, files, unread };
}

/** One file's permission keys; a key of the wrong shape is named in `malformed`. */
function permissionKeys(file: SettingsFile & { state: "ok" }): PermissionSettingsFile {
  const malformed: string[] = [];
  const raw = file.value.permissions;
  const permissions = isObject(raw) ? raw : {};
  if (raw !== undefined && !isObject(raw)) malformed.push("permissions");
  const list = (key: string): string[] => {
    const value = permissions[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      malformed.push(`permissions.${key}`);
      return [];
    }
    return value.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  };
  const mode = permissions.defaultMode ?? (file.origin === "verbatim" ? file.value.defaultMode : undefined);
  if (mode !== undefined && typeof mode !== "string") malformed.push("permissions.defaultMode");
  const managedOnly = file.scope === "managed" && file.value.allowManagedPermissionRulesOnly === true;
  const sandbox = file.value.sandbox === undefined ? undefined : sandboxSettings.safeParse(file.value.sandbox);
  if (sandbox && !sandbox.success) malformed.push("sandbox");
  return {
    path: file.path,
    scope: file.scope,
    sha256: file.sha256,
    anchor: file.anchor,
    allow: list("allow"),
    ask: list("ask"),
    deny: list("deny"),
    additionalDirectories: list("additionalDirectories"),
    ...(typeof mode === "string" ? { defaultMode: mode } : {}),
    ...(managedOnly ? { managedOnly } : {}),
    ...(sandbox?.success ? { sandbox: sandbox.data } : {}),
    ...(malformed.length ? { malformed } : {}),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether two readings of the files say the same (the same files, contents and trust). */
export function sameSettings(a: PermissionSettingsRead, b: PermissionSettingsRead): boolean {
  const key = (f: PermissionSettingsRead) =>
    JSON.stringify([f.cwd, f.home, f.trusted, f.files.map((x) => [x.path, x.sha256]), f.unread]);
  return key(a) === key(b);
}

/** A file whose allow rules, directories and mode need a trusted workspace. */
const needsTrust = (file: PermissionSettingsFile) => file.scope === "project" || file.scope === "local";

/** Whether the file's rules of this kind hold, given trust and a managed-only policy. */
function holds(fact: PermissionSettingsRead, file: PermissionSettingsFile, decision: RuleDecision): boolean {
  const managedOnly = fact.files.some((f) => f.managedOnly);
  if (managedOnly && file.scope !== "managed") return false;
  return decision !== "allow" || fact.trusted || !needsTrust(file);
}

/**
 * The rules in force: the recorded files' (when `settings` is this host's, recorded since the
 * last import), the session's own answers, and those of the commands acting in the turn.
 */
export function ruleSetOf(
  settings: PermissionSettingsRead | undefined,
  sessionRules: readonly PermissionRule[],
  session: { cwd: string; home: string; commands?: readonly Pick<CommandActivated, "path" | "allow" | "deny">[] },
): RuleSet {
  const rules: RuleEntry[] = [];
  const bad: BadRuleEntry[] = [];
  const add = (entry: RuleEntry | BadRuleEntry) => (isBad(entry) ? bad.push(entry) : rules.push(entry));
  for (const file of settings?.files ?? []) {
    const anchors: PathAnchors = { cwd: settings!.cwd, home: settings!.home, source: file.anchor };
    for (const decision of DECISIONS) {
      if (!holds(settings!, file, decision)) continue;
      for (const text of file[decision])
        add(ruleEntry(text, decision, { scope: file.scope, path: file.path }, anchors));
    }
    if (file.malformed?.some((key) => key === "permissions" || key === "permissions.deny"))
      bad.push({
        decision: "deny",
        text: "permissions.deny",
        source: { scope: file.scope, path: file.path },
        reason: "the deny list is not a list of rules",
      });
  }
  const anchors: PathAnchors = { cwd: session.cwd, home: session.home, source: session.cwd };
  for (const rule of sessionRules) add(sessionRuleEntry(rule, anchors));
  // The commands acting in the turn: their file's folder anchors a relative path, as a settings file's does.
  for (const command of session.commands ?? []) {
    const source = { scope: "command" as const, path: command.path };
    const at: PathAnchors = { ...anchors, source: dirname(command.path) };
    for (const text of command.deny) add(ruleEntry(text, "deny", source, at));
    for (const text of command.allow) add(ruleEntry(text, "allow", source, at));
  }
  const unread = settings?.unread ?? [];
  return {
    rules,
    bad,
    ...(unread.length
      ? { askAll: `${unread.map((u) => u.path).join(", ")} could not be read, so its deny rules are unknown` }
      : {}),
  };
}

/** The directories the settings let file tools into (relative ones from the working directory). */
export function settingsDirectories(settings: PermissionSettingsRead): string[] {
  return settings.files
    .filter((file) => holds(settings, file, "allow"))
    .flatMap((file) => file.additionalDirectories)
    .map((dir) => (dir === "~" || dir.startsWith("~/") ? join(settings.home, dir.slice(1)) : dir))
    .map((dir) => (isAbsolute(dir) ? dir : resolve(settings.cwd, dir)));
}

/** verbatim's modes, and the names Claude Code also accepts for one of them. */
const MODE_ALIASES: Record<string, string> = {
  default: "default",
  manual: "default",
  acceptEdits: "acceptEdits",
  plan: "plan",
  bypassPermissions: "bypassPermissions",
};

/** The mode the settings start a session in (the highest file's that holds), and a mode read as `default`, if any. */
export function settingsMode(settings: PermissionSettingsRead): {
  mode?: string;
  unknown?: { mode: string; path: string };
} {
  const order = [...settings.files].sort((a, b) => rank(b.scope) - rank(a.scope));
  for (const file of order) {
    if (file.defaultMode === undefined) continue;
    const mode = MODE_ALIASES[file.defaultMode];
    // A mode that runs calls unasked is an allow: a project's waits for trust. `default` and `plan` never do.
    const unasked = mode === "acceptEdits" || mode === "bypassPermissions";
    if (!holds(settings, file, unasked ? "allow" : "deny")) continue;
    return mode ? { mode } : { mode: "default", unknown: { mode: file.defaultMode, path: file.path } };
  }
  return {};
}

/** Claude Code's precedence: managed, then local, project, user. */
const rank = (scope: PermissionSettingsFile["scope"]) => ({ managed: 3, local: 2, project: 1, user: 0 })[scope];

/**
 * The settings rules a session decides by: the last recorded by this host (an import leaves none
 * in force: replay/state.ts), never another machine's reading.
 */
export function settingsInForce(
  state: { permissionSettings: { fact: PermissionSettingsRead; seq: number } | undefined },
  host: string,
): PermissionSettingsRead | undefined {
  const recorded = state.permissionSettings;
  return recorded && recorded.fact.host === host ? recorded.fact : undefined;
}
