/**
 * The types a command's sandbox is used through (command-sandbox.ts builds it, sandbox-run.ts
 * drives the runtime for it; both import these, neither the other's code for them).
 */
import type { Fact, SandboxViolation } from "../../journal/facts/index.ts";
import type { Confinement } from "./confinement.ts";
import type { PolicyInputs } from "./sandbox-policy.ts";

/** What the sandbox refused a command; `retryOutside`: whether the model may ask to run it outside (`dangerouslyDisableSandbox`). */
export type SandboxVerdicts = {
  violations: SandboxViolation[];
  dropped: number;
  retryOutside: boolean;
  /** Blocked hosts the user then allowed for later commands (asked only for a command the model waits on). */
  allowedAfter?: string[];
};

/** A command ready to run: the line to run, and what to do once it has ended. */
export type PreparedCommand = {
  command: string;
  sandboxed: boolean;
  /**
   * Records what the sandbox refused (if anything) and returns it; with `ask`, blocked hosts are
   * then put to the user. Call once, when the command has ended (later calls get the same answer).
   */
  finish(ask?: { signal: AbortSignal }): Promise<SandboxVerdicts>;
};

export interface CommandSandbox {
  /** `command` as it will run; `shown` is the model's own command line (what violations are attributed to). */
  prepare(command: string, shown: string): Promise<PreparedCommand>;
}

export type CommandSandboxOptions = {
  confinement: Confinement | undefined;
  toolCallId: string;
  policy: Omit<PolicyInputs, "inForce" | "readOnly">;
  record(fact: Fact): Promise<void>;
};
