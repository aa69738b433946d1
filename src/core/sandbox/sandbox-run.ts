/**
 * What drives the sandbox runtime, built as its own bundle (scripts/build.ts) and loaded by the
 * first confined command of the process (command-sandbox.ts, the gate's confinement check), so
 * the agent's bundle holds none of it. The runtime itself is one more bundle
 * (src/lazy-sdks/sandbox-runtime.ts), which sandbox-runtime-host.ts loads.
 *
 * A command is wrapped with its policy (recorded on its card first); when it has ended, what the
 * sandbox refused it is recorded on the same card and, for a command the model waits on, blocked
 * hosts are put to the user.
 */
import type { Fact, PermissionSettingsRead, SandboxPolicy, SandboxViolation } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { mintId } from "../ids.ts";
import type { CommandSandboxOptions, PreparedCommand, SandboxVerdicts } from "./command-types.ts";
import type { Confinement } from "./confinement.ts";
import { sandboxPolicy } from "./sandbox-policy.ts";
import { commandKey, denyHosts, startSandbox } from "./sandbox-runtime-host.ts";
import { sandboxInForce, type SandboxInForce } from "./sandbox-settings.ts";
import { parseViolation } from "./violations.ts";

export { startSandbox } from "./sandbox-runtime-host.ts";
export { sandboxInForce } from "./sandbox-settings.ts";

/** Sessions (by their state) already told in this process that their commands run unconfined. */
const told = new WeakSet<SessionStateFold>();

/**
 * Whether a `Bash` call runs in the sandbox (the gate's question, permissions/sandbox-confinement.ts):
 * not when the settings turn it off or this machine cannot run it (either said once a session in
 * a notice; every command then asks), nor for `dangerouslyDisableSandbox` (which asks) or a
 * command `sandbox.excludedCommands` names.
 */
export async function confine(q: {
  settings: PermissionSettingsRead | undefined;
  state: SessionStateFold;
  input: unknown;
  record(fact: Fact): Promise<void>;
  excluded(patterns: readonly string[]): boolean;
}): Promise<Confinement> {
  const inForce = sandboxInForce(q.settings);
  if (!inForce.enabled) {
    await tellOnce(
      q,
      "The sandbox is off: commands run unconfined, and each one asks first",
      `${inForce.disabledBy ?? "A settings file"} sets sandbox.enabled to false.`,
    );
    return { sandboxed: false, why: "off" };
  }
  const start = await startSandbox();
  if (!start.ok) {
    const install = start.install
      ? ` Install ${start.install} (apt-get install ${start.install}) and start a new session; \`verbatim doctor\` checks it.`
      : "";
    await tellOnce(q, "Commands are not sandboxed here: each one asks first", `${start.reason}.${install}`);
    return { sandboxed: false, why: "unavailable" };
  }
  const asked = (q.input as { dangerouslyDisableSandbox?: unknown }).dangerouslyDisableSandbox === true;
  if (asked && inForce.allowUnsandboxedCommands) return { sandboxed: false, why: "asked" };
  if (q.excluded(inForce.excludedCommands)) return { sandboxed: false, why: "excluded" };
  return { sandboxed: true, readOnly: q.state.modeId === "plan", inForce };
}

async function tellOnce(
  q: { state: SessionStateFold; record(fact: Fact): Promise<void> },
  title: string,
  description: string,
) {
  if (told.has(q.state)) return;
  told.add(q.state);
  await q.record({ kind: "notice_shown", messageId: mintId("msg"), severity: "warning", title, description });
}

/** The most refusals recorded for one command; the rest are counted. */
const MAX_RECORDED_VIOLATIONS = 50;

type Manager = Extract<Awaited<ReturnType<typeof startSandbox>>, { ok: true }>["manager"];
type Sandboxed = Extract<Confinement, { sandboxed: true }>;

export async function prepareSandboxed(
  options: CommandSandboxOptions,
  c: Sandboxed,
  command: string,
  shown: string,
): Promise<PreparedCommand> {
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
    finish: (ask) => (finished ??= verdicts(manager, key, policy, options, c, ask?.signal)),
  };
}

/** What the sandbox refused the command, recorded; then blocked hosts put to the user (`signal`: a call waits). */
async function verdicts(
  manager: Manager,
  key: string,
  policy: SandboxPolicy,
  options: CommandSandboxOptions,
  c: Sandboxed,
  signal: AbortSignal | undefined,
): Promise<SandboxVerdicts> {
  manager.unregisterCommandNetworkLists(key);
  const all = (await settledViolations(manager, key))
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
  const ask = c.inForce.strictAllowlist ? undefined : c.askHosts;
  const allowedAfter = signal && !signal.aborted && blocked.length && ask ? await ask(blocked, signal) : [];
  return {
    violations,
    dropped,
    retryOutside: c.inForce.allowUnsandboxedCommands,
    ...(allowedAfter.length ? { allowedAfter } : {}),
  };
}

/** Turns of the event loop a command's last reports may take to be read after its exit. */
const SETTLE_TURNS = 3;
const MAX_TURNS = 20;

/**
 * The runtime's reports for one command once they stop arriving. The helper inside the sandbox
 * writes each write attempt to the runtime's monitor socket before the command exits, but this
 * process reads that socket on its own turns of the event loop: read at the exit, the last
 * reports (often the only one) were sometimes still unread (a refused write missing from its
 * card, seen under load). Waits until the count has stayed the same for SETTLE_TURNS turns (each
 * lets the loop read its sockets), at most MAX_TURNS: microseconds, not a timer.
 */
async function settledViolations(manager: Manager, key: string) {
  const store = manager.getSandboxViolationStore();
  let seen = store.getViolationsForCommand(key).length;
  for (let turn = 0, same = 0; turn < MAX_TURNS && same < SETTLE_TURNS; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
    const now = store.getViolationsForCommand(key).length;
    same = now === seen ? same + 1 : 0;
    seen = now;
  }
  return store.getViolationsForCommand(key);
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
