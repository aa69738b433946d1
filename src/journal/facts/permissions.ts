import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { permissionOption } from "./display-shapes.ts";
import { sandboxSettings } from "./sandbox.ts";

/** A permission question sent to the client for one tool call. */
export const permissionRequested = lazySchema(() =>
  z.object({
    kind: z.literal("permission_requested"),
    requestId: z.string(),
    toolCallId: z.string(),
    options: z.array(permissionOption),
  }),
);

export const permissionOutcome = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("selected"),
    optionId: z.string(),
    kind: permissionOption.shape.kind.optional(),
  }),
  z.object({ outcome: z.literal("cancelled") }),
]);
export type PermissionOutcome = z.infer<typeof permissionOutcome>;

/**
 * Who answered a question from another client than the writer's: its process (machine, pid and
 * the process's start time, process-identity.ts) and its client's name.
 */
export const answeredBy = z.object({
  pid: z.number().int(),
  host: z.string().optional(),
  startTime: z.string().optional(),
  client: z.string().optional(),
});
export type AnsweredBy = z.infer<typeof answeredBy>;

/**
 * The answer exactly as given (an option id that was not offered is kept as given). `answeredBy`
 * names the client that gave it when that was not the writer's own (a controller attached from
 * another process: journal/answer-claims.ts). `failure`: the client gave no answer, its request
 * failed (an error response, a dropped connection) with this message; nothing was chosen, so the
 * outcome is `cancelled`. Absent in records written before it was kept.
 */
export const permissionAnswered = lazySchema(() =>
  z.object({
    kind: z.literal("permission_answered"),
    requestId: z.string(),
    toolCallId: z.string(),
    outcome: permissionOutcome,
    answeredBy: answeredBy.optional(),
    failure: z.string().optional(),
  }),
);

/**
 * An "always" answer, kept as a rule for the rest of the session (and after reload). With `rule`,
 * the rule as a user writes it in a settings file (`Bash(npm run test:*)`), matched as those are;
 * without it (answers recorded before rules had that syntax), calls of `toolName` whose rule scope
 * equals `scope` (every call of the tool when `scope` is absent). `savedTo`: the settings file the
 * answer also wrote the rule to ("for this project"), so later sessions read it there.
 */
export const permissionRuleAdded = lazySchema(() =>
  z.object({
    kind: z.literal("permission_rule_added"),
    requestId: z.string(),
    toolCallId: z.string(),
    toolName: z.string(),
    scope: z.string().optional(),
    decision: z.enum(["allow", "deny"]),
    rule: z.string().optional(),
    savedTo: z.string().optional(),
  }),
);
export type PermissionRule = Omit<z.infer<typeof permissionRuleAdded>, "kind">;

/**
 * The user allowed file tools into a directory outside the session's directories for the rest
 * of the session (an "always" answer to an outside-access question).
 */
export const accessGranted = lazySchema(() =>
  z.object({
    kind: z.literal("access_granted"),
    requestId: z.string(),
    toolCallId: z.string(),
    directory: z.string(),
  }),
);

/** Where a settings file sits in Claude Code's order (managed wins; arrays merge across all). */
export const settingsScope = z.enum(["managed", "user", "project", "local"]);
export type SettingsScope = z.infer<typeof settingsScope>;

/**
 * One settings file's permission keys as read: its rules exactly as written, the directory its
 * `/path` rules are anchored at, and the SHA-256 of the whole file (the rest of the file, which
 * may hold secrets, is never recorded).
 */
export const permissionSettingsFile = z.object({
  path: z.string(),
  scope: settingsScope,
  sha256: z.string(),
  anchor: z.string(),
  allow: z.array(z.string()),
  ask: z.array(z.string()),
  deny: z.array(z.string()),
  additionalDirectories: z.array(z.string()),
  defaultMode: z.string().optional(),
  /** Managed `allowManagedPermissionRulesOnly`: no other file's rules apply. */
  managedOnly: z.boolean().optional(),
  /** The file's `sandbox` keys (src/core/sandbox/); absent when it has none, and in records older than the sandbox. */
  sandbox: sandboxSettings.optional(),
  /** Keys whose value was not of the expected shape (a `deny` that is not a list makes every tool ask). */
  malformed: z.array(z.string()).optional(),
});
export type PermissionSettingsFile = z.infer<typeof permissionSettingsFile>;

/**
 * The permission rules of the settings files, read when the session started and again whenever a
 * file changed between turns. The gate decides from the last of these recorded by this host since
 * the session was last imported, never from a file read while deciding. `trusted`: whether the
 * workspace was trusted, which project and local allow rules and directories need. `unread`:
 * files that exist but could not be read (every call asks while one stands: its denies are unknown).
 */
export const permissionSettingsRead = lazySchema(() =>
  z.object({
    kind: z.literal("permission_settings_read"),
    host: z.string(),
    cwd: z.string(),
    home: z.string(),
    trusted: z.boolean(),
    files: z.array(permissionSettingsFile),
    unread: z.array(z.object({ path: z.string(), scope: settingsScope, reason: z.string() })),
  }),
);
export type PermissionSettingsRead = z.infer<typeof permissionSettingsRead>;

/**
 * A rule as a card names it: its text, and the file it came from (none: an answer in this
 * session; `command`: the `allowed-tools` or `disallowed-tools` of a command or skill acting in the turn).
 */
export const decidingRule = z.object({
  text: z.string(),
  scope: z.enum(["managed", "user", "project", "local", "session", "command"]),
  path: z.string().optional(),
});
export type DecidingRule = z.infer<typeof decidingRule>;

/**
 * Which rules decided a call, recorded when the gate decided it: `allow` or `deny` by the rules
 * named, or `ask` by the rule named, by none (`rules` empty: "asked: no rule"), or because of a
 * bad deny or a settings file that could not be read (`why`).
 */
export const permissionRuled = lazySchema(() =>
  z.object({
    kind: z.literal("permission_ruled"),
    toolCallId: z.string(),
    decision: z.enum(["allow", "ask", "deny"]),
    rules: z.array(decidingRule),
    why: z.string().optional(),
  }),
);

/**
 * The user answered the editor's question whether to trust the session's workspace (asked on the
 * card `toolCallId`, the first time an untrusted workspace wanted its project settings or hooks to
 * act): `trusted` when they trusted it, which `verbatim trust` would have kept in the user config
 * as well (`error`: why it could not be kept, so it was not trusted). Asked once a session.
 */
export const workspaceTrustAnswered = lazySchema(() =>
  z.object({
    kind: z.literal("workspace_trust_answered"),
    toolCallId: z.string(),
    folder: z.string(),
    trusted: z.boolean(),
    error: z.string().optional(),
  }),
);

export const permissionFacts = [
  permissionRequested,
  permissionAnswered,
  permissionRuleAdded,
  accessGranted,
  permissionSettingsRead,
  permissionRuled,
  workspaceTrustAnswered,
] as const;
