/**
 * The hook events verbatim fires, with Claude Code's names. Each entry says what a matcher is
 * tested against and whether the event can block. Adding an event is one entry here plus the
 * place in the engine that fires it.
 */

export type HookEventSpec = {
  /** The payload field a matcher is tested against; none = matchers are ignored. */
  matcherField?: string;
  /** Exit 2 (and `decision: "block"` / a deny) changes what happens. */
  blocking: boolean;
  /** Plain (non-JSON) stdout on exit 0 becomes model context (Claude Code parity). */
  plainStdoutIsContext: boolean;
  /** Default timeout in seconds, when the handler sets none. */
  defaultTimeoutSec: number;
};

/** The default handler timeout (hooks.md §12.5: an editor-embedded agent should not stall 10 minutes). */
const DEFAULT_TIMEOUT_SEC = 60;
/** SessionEnd runs while a session closes: a short budget unless the handler asks for more. */
const SESSION_END_TIMEOUT_SEC = 1.5;

export const hookEvents = {
  SessionStart: {
    matcherField: "source",
    blocking: false,
    plainStdoutIsContext: true,
    defaultTimeoutSec: DEFAULT_TIMEOUT_SEC,
  },
  UserPromptSubmit: { blocking: true, plainStdoutIsContext: true, defaultTimeoutSec: 30 },
  PreToolUse: {
    matcherField: "tool_name",
    blocking: true,
    plainStdoutIsContext: false,
    defaultTimeoutSec: DEFAULT_TIMEOUT_SEC,
  },
  PermissionRequest: {
    matcherField: "tool_name",
    blocking: false,
    plainStdoutIsContext: false,
    defaultTimeoutSec: DEFAULT_TIMEOUT_SEC,
  },
  PostToolUse: {
    matcherField: "tool_name",
    blocking: false,
    plainStdoutIsContext: false,
    defaultTimeoutSec: DEFAULT_TIMEOUT_SEC,
  },
  PostToolUseFailure: {
    matcherField: "tool_name",
    blocking: false,
    plainStdoutIsContext: false,
    defaultTimeoutSec: DEFAULT_TIMEOUT_SEC,
  },
  Stop: { blocking: true, plainStdoutIsContext: false, defaultTimeoutSec: DEFAULT_TIMEOUT_SEC },
  StopFailure: {
    matcherField: "error",
    blocking: false,
    plainStdoutIsContext: false,
    defaultTimeoutSec: DEFAULT_TIMEOUT_SEC,
  },
  Notification: {
    matcherField: "notification_type",
    blocking: false,
    plainStdoutIsContext: false,
    defaultTimeoutSec: DEFAULT_TIMEOUT_SEC,
  },
  SessionEnd: {
    matcherField: "reason",
    blocking: false,
    plainStdoutIsContext: false,
    defaultTimeoutSec: SESSION_END_TIMEOUT_SEC,
  },
  /** Before a compaction (`trigger`: manual or auto); a block skips it (an automatic one ends the turn). */
  PreCompact: {
    matcherField: "trigger",
    blocking: true,
    plainStdoutIsContext: false,
    defaultTimeoutSec: DEFAULT_TIMEOUT_SEC,
  },
  /** After a compaction completed (observation only). */
  PostCompact: {
    matcherField: "trigger",
    blocking: false,
    plainStdoutIsContext: false,
    defaultTimeoutSec: DEFAULT_TIMEOUT_SEC,
  },
  /** Inside a subagent, in place of SessionStart and UserPromptSubmit: context goes to the subagent. */
  SubagentStart: {
    matcherField: "agent_type",
    blocking: false,
    plainStdoutIsContext: false,
    defaultTimeoutSec: DEFAULT_TIMEOUT_SEC,
  },
  /** Inside a subagent, in place of Stop: a block keeps the subagent going. */
  SubagentStop: {
    matcherField: "agent_type",
    blocking: true,
    plainStdoutIsContext: false,
    defaultTimeoutSec: DEFAULT_TIMEOUT_SEC,
  },
} as const satisfies Record<string, HookEventSpec>;

export type HookEventName = keyof typeof hookEvents;

export const isHookEvent = (name: string): name is HookEventName => Object.hasOwn(hookEvents, name);

/**
 * Events Claude Code defines that verbatim does not fire (yet): configuring them is not an
 * error, but the user is told they will not run.
 */
export const knownButNotFired = new Set([
  "Setup",
  "InstructionsLoaded",
  "UserPromptExpansion",
  "PermissionDenied",
  "PostToolBatch",
  "MessageDisplay",
  "TaskCreated",
  "TaskCompleted",
  "TeammateIdle",
  "ConfigChange",
  "CwdChanged",
  "DirectoryAdded",
  "FileChanged",
  "WorktreeCreate",
  "WorktreeRemove",
  "Elicitation",
  "ElicitationResult",
]);
