/**
 * Whether a command runs in the OS sandbox, as the permission gate decided it
 * (src/core/permissions/sandbox-confinement.ts) and the command's tool acts on it.
 */
import type { SandboxInForce } from "./sandbox-settings.ts";

/**
 * Asks the user about hosts the sandbox blocked for a command (on its card): the hosts the user
 * allowed for the session's later commands (an "always" answer, recorded as `WebFetch(domain:…)`
 * rules), none when refused or not answered.
 */
export type HostQuestion = (hosts: string[], signal: AbortSignal) => Promise<string[]>;

export type Confinement =
  | { sandboxed: true; readOnly: boolean; inForce: SandboxInForce; askHosts?: HostQuestion }
  /** `off`: the user turned it off; `unavailable`: this machine cannot run it; `asked`: `dangerouslyDisableSandbox`; `excluded`: `sandbox.excludedCommands`. */
  | { sandboxed: false; why: "off" | "unavailable" | "asked" | "excluded" };
