/**
 * Whether a command runs in the OS sandbox, as the permission gate decided it
 * (src/core/permissions/sandbox-confinement.ts) and the command's tool acts on it.
 */
import type { SandboxInForce } from "./sandbox-settings.ts";

export type Confinement =
  | { sandboxed: true; readOnly: boolean; inForce: SandboxInForce }
  /** `off`: the user turned it off; `unavailable`: this machine cannot run it; `asked`: `dangerouslyDisableSandbox`; `excluded`: `sandbox.excludedCommands`. */
  | { sandboxed: false; why: "off" | "unavailable" | "asked" | "excluded" };
