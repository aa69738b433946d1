/**
 * The sandbox runtime, once per process: loaded (its own bundle, src/lazy-sdks/sandbox-runtime.ts)
 * and started when the first command of any session is about to run, never before: a session that
 * runs no command never pays for it. Starting checks what the runtime needs (bubblewrap, socat,
 * ripgrep, user namespaces, CAP_SETFCAP as root) by running one sandboxed `true`: a machine where
 * that fails has no sandbox, and says why.
 *
 * The runtime is one per process; each command brings its own filesystem policy (fixed when it is
 * wrapped) and its own network allowlist (registered under an unguessable id). Denied hosts are
 * process-wide: the union of every session's, which only ever narrows.
 */
import { randomBytes } from "node:crypto";
import { log } from "../../shared/log.ts";

type Runtime = typeof import("../../lazy-sdks/sandbox-runtime.ts");
type Manager = Runtime["SandboxManager"];

/** The started runtime, or why this machine cannot sandbox (`install`: the packages that would fix it). */
export type SandboxStart = { ok: true; manager: Manager } | { ok: false; reason: string; install?: string };

/** The Linux packages the runtime runs (Debian and Ubuntu names). */
export const LINUX_PACKAGES = "bubblewrap socat ripgrep";

let started: Promise<SandboxStart> | undefined;
const deniedHosts = new Set<string>();

/** Starts the runtime once per process; every later call gets the same answer. */
export function startSandbox(): Promise<SandboxStart> {
  started ??= start().catch((error: unknown) => ({
    ok: false as const,
    reason: `the sandbox runtime failed to start: ${error instanceof Error ? error.message : String(error)}`,
  }));
  return started;
}

async function start(): Promise<SandboxStart> {
  if (process.platform !== "linux" && process.platform !== "darwin")
    return { ok: false, reason: `the sandbox does not run on ${process.platform}` };
  const runtime = await import("../../lazy-sdks/sandbox-runtime.ts");
  const manager = runtime.SandboxManager;
  if (!manager.isSupportedPlatform())
    return { ok: false, reason: "this platform is not supported by the sandbox runtime (WSL 1?)" };
  const applyPath = process.platform === "linux" ? await runtime.applySeccompPath() : undefined;
  const deps = await manager.checkDependenciesAsync();
  if (deps.errors.length > 0)
    return {
      ok: false,
      reason: `the sandbox cannot start: ${deps.errors.join("; ")}`,
      ...(process.platform === "linux" ? { install: LINUX_PACKAGES } : {}),
    };
  await manager.initialize(
    {
      network: { allowedDomains: [], deniedDomains: [] },
      filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
      ...(applyPath ? { seccomp: { applyPath } } : {}),
    },
    undefined,
    true,
  );
  const probe = await probeRun(manager);
  if (probe !== undefined) {
    await manager.reset().catch(() => undefined);
    return { ok: false, reason: `a sandboxed command could not run here: ${probe}`, install: LINUX_PACKAGES };
  }
  for (const w of deps.warnings) log.debug("sandbox:", w);
  return { ok: true, manager };
}

/** Runs `true` in the sandbox; undefined when it worked, else what it printed. */
async function probeRun(manager: Manager): Promise<string | undefined> {
  const wrapped = await manager.wrapWithSandbox("true", undefined, {
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
  });
  const child = Bun.spawn(["bash", "-c", wrapped], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [err, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  return code === 0 ? undefined : err.trim().split("\n").slice(-3).join(" ") || `exit code ${code}`;
}

/** A fresh id for one command's violations and network allowlist (128 bits, as the runtime requires). */
export const commandKey = (): string => randomBytes(16).toString("base64url");

/** Adds a session's denied hosts to the process's (they are never taken out). */
export function denyHosts(manager: Manager, hosts: readonly string[]): void {
  const before = deniedHosts.size;
  for (const h of hosts) deniedHosts.add(h);
  if (deniedHosts.size === before) return;
  const config = manager.getConfig();
  if (config) manager.updateConfig({ ...config, network: { ...config.network, deniedDomains: [...deniedHosts] } });
}
