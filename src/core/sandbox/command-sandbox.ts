/**
 * One command's sandbox: the command line wrapped for the runtime, its policy recorded on the
 * card before it starts (`command_sandboxed`), and, when it has ended, what the sandbox refused it
 * recorded on the same card (`sandbox_violations`) and returned for the model's result. A command
 * the gate let run outside the sandbox is returned as given.
 */
import type { Fact, SandboxPolicy, SandboxViolation } from "../../journal/facts/index.ts";
import type { Confinement } from "./confinement.ts";
import type { SandboxInForce } from "./sandbox-settings.ts";
import { sandboxPolicy, type PolicyInputs } from "./sandbox-policy.ts";
import { commandKey, denyHosts, startSandbox } from "./sandbox-runtime-host.ts";
import { parseViolation } from "./violations.ts";

/** The most refusals recorded for one command; the rest are counted. */
const MAX_RECORDED_VIOLATIONS = 50;

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

const unconfined = (command: string): PreparedCommand => ({
  command,
  sandboxed: false,
  finish: async () => ({ violations: [], dropped: 0, retryOutside: false }),
});

export function commandSandbox(options: {
  confinement: Confinement | undefined;
  toolCallId: string;
  policy: Omit<PolicyInputs, "inForce" | "readOnly">;
  record(fact: Fact): Promise<void>;
}): CommandSandbox {
  return {
    async prepare(command, shown) {
      const c = options.confinement;
      if (!c?.sandboxed) return unconfined(command);
      const retryOutside = c.inForce.allowUnsandboxedCommands;
      const ask = c.inForce.strictAllowlist ? undefined : c.askHosts;
      const start = await startSandbox();
      if (!start.ok) throw new Error(`the sandbox stopped working: ${start.reason}`);
      const manager = start.manager;
      const policy = sandboxPolicy({ ...options.policy, inForce: c.inForce, readOnly: c.readOnly });
      await options.record({ kind: "command_sandboxed", toolCallId: options.toolCallId, policy });
      denyHosts(manager, policy.deniedHosts);
      const key = commandKey();
      if (policy.allowedHosts.length) manager.registerCommandNetworkLists(key, { allowedDomains: policy.allowedHosts });
      const wrapped = await manager.wrapWithSandbox(command, undefined, runtimeConfig(policy, c.inForce), undefined, {
        commandId: key,
        commandText: shown,
      });
      let finished: Promise<SandboxVerdicts> | undefined;
      return {
        command: wrapped,
        sandboxed: true,
        finish: (ask) => (finished ??= verdicts(ask?.signal)),
      };
      async function verdicts(signal: AbortSignal | undefined): Promise<SandboxVerdicts> {
        manager.unregisterCommandNetworkLists(key);
        const all = manager
          .getSandboxViolationStore()
          .getViolationsForCommand(key)
          .map((v) => parseViolation(v.line))
          .filter((v) => !permittedWrite(v, policy));
        const violations = all.slice(0, MAX_RECORDED_VIOLATIONS);
        const dropped = all.length - violations.length;
        if (violations.length)
          await options.record({
            kind: "sandbox_violations",
            toolCallId: options.toolCallId,
            violations,
            ...(dropped ? { dropped } : {}),
          });
        const blocked = blockedHosts(violations, policy);
        const allowedAfter = signal && !signal.aborted && blocked.length && ask ? await ask(blocked, signal) : [];
        return { violations, dropped, retryOutside, ...(allowedAfter.length ? { allowedAfter } : {}) };
      }
    },
  };
}

const under = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);

/**
 * The runtime's write monitor judges attempts by the filesystem lists it was started with, not by
 * each command's; an attempt inside the command's own writable folders (and outside its
 * unwritable ones) was allowed by bubblewrap, so it is no refusal.
 */
function permittedWrite(v: SandboxViolation, policy: SandboxPolicy): boolean {
  if (v.type !== "write") return false;
  return policy.writable.some((d) => under(v.path, d)) && !policy.unwritable.some((d) => under(v.path, d));
}

/** The hosts a user could allow: blocked, named (not an address the settings deny), at most five. */
function blockedHosts(violations: SandboxViolation[], policy: SandboxPolicy): string[] {
  const hosts = violations.flatMap((v) => (v.type === "network" ? [v.host.toLowerCase()] : []));
  return [...new Set(hosts)].filter((h) => !policy.deniedHosts.includes(h) && /^[a-z0-9.-]+$/.test(h)).slice(0, 5);
}

type RuntimeConfig = NonNullable<
  Parameters<Awaited<typeof import("../../lazy-sdks/sandbox-runtime.ts")>["SandboxManager"]["wrapWithSandbox"]>[2]
>;

/** The runtime's per-command settings for a policy (the network allowlist is registered apart). */
function runtimeConfig(policy: SandboxPolicy, inForce: SandboxInForce): RuntimeConfig {
  return {
    filesystem: {
      denyRead: policy.unreadable,
      allowRead: policy.readable ?? [],
      allowWrite: policy.writable,
      denyWrite: policy.unwritable,
    },
    network: {
      allowedDomains: [],
      deniedDomains: policy.deniedHosts,
      allowLocalBinding: policy.localBinding,
      ...(inForce.allowUnixSockets.length ? { allowUnixSockets: inForce.allowUnixSockets } : {}),
      ...(inForce.allowAllUnixSockets ? { allowAllUnixSockets: true } : {}),
      ...(inForce.httpProxyPort === undefined ? {} : { httpProxyPort: inForce.httpProxyPort }),
      ...(inForce.socksProxyPort === undefined ? {} : { socksProxyPort: inForce.socksProxyPort }),
    },
    ...(inForce.enableWeakerNestedSandbox ? { enableWeakerNestedSandbox: true } : {}),
  };
}
