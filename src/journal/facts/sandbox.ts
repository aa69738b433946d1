/**
 * The OS sandbox a command ran in (src/core/sandbox/): the settings keys it was built from (on the
 * settings file's record), the policy each command ran under and what the sandbox refused it.
 * Recorded when they happen, so a reopened session shows each card's verdicts exactly.
 */
import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";

const strings = z.array(z.string()).optional();

/**
 * A settings file's `sandbox` keys (Claude Code's names) as written, the ones verbatim reads.
 * `enabled` unset means on in verbatim (Claude Code's default is off).
 */
export const sandboxSettings = z.object({
  enabled: z.boolean().optional(),
  autoAllowBashIfSandboxed: z.boolean().optional(),
  allowUnsandboxedCommands: z.boolean().optional(),
  excludedCommands: strings,
  enableWeakerNestedSandbox: z.boolean().optional(),
  filesystem: z.object({ allowWrite: strings, denyWrite: strings, denyRead: strings, allowRead: strings }).optional(),
  network: z
    .object({
      allowedDomains: strings,
      deniedDomains: strings,
      allowLocalBinding: z.boolean().optional(),
      allowUnixSockets: strings,
      allowAllUnixSockets: z.boolean().optional(),
      httpProxyPort: z.number().int().optional(),
      socksProxyPort: z.number().int().optional(),
      strictAllowlist: z.boolean().optional(),
    })
    .optional(),
});
export type SandboxSettings = z.infer<typeof sandboxSettings>;

/**
 * The policy a command ran under: where it could write, what it could not read, which hosts it
 * could reach (`local`: whether it could listen on loopback), `readOnly` in plan mode. Recorded on
 * its card before it starts.
 */
export const sandboxPolicy = z.object({
  writable: z.array(z.string()),
  unwritable: z.array(z.string()),
  unreadable: z.array(z.string()),
  /** Paths inside `unreadable` read again (`sandbox.filesystem.allowRead`, the session's env file). */
  readable: z.array(z.string()).optional(),
  allowedHosts: z.array(z.string()),
  deniedHosts: z.array(z.string()),
  localBinding: z.boolean(),
  readOnly: z.boolean().optional(),
});
export type SandboxPolicy = z.infer<typeof sandboxPolicy>;

export const commandSandboxed = lazySchema(() =>
  z.object({
    kind: z.literal("command_sandboxed"),
    toolCallId: z.string(),
    policy: sandboxPolicy,
  }),
);

/**
 * One refusal the sandbox reported: a write (`path`, and the system call refused) or a
 * connection (`host`, `port`); `line` is the runtime's own words for it.
 */
export const sandboxViolation = z.discriminatedUnion("type", [
  z.object({ type: z.literal("write"), path: z.string(), operation: z.string(), line: z.string() }),
  z.object({ type: z.literal("network"), host: z.string(), port: z.number().int().optional(), line: z.string() }),
  z.object({ type: z.literal("other"), line: z.string() }),
]);
export type SandboxViolation = z.infer<typeof sandboxViolation>;

/** What the sandbox refused a command, recorded when it ended (only when it refused something). */
export const sandboxViolations = lazySchema(() =>
  z.object({
    kind: z.literal("sandbox_violations"),
    toolCallId: z.string(),
    violations: z.array(sandboxViolation),
    /** Refusals past the recording bound, counted but not recorded. */
    dropped: z.number().int().optional(),
  }),
);

export const sandboxFacts = [commandSandboxed, sandboxViolations] as const;
