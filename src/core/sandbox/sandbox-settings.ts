/**
 * The `sandbox` keys in force, merged from the recorded settings files as Claude Code merges them:
 * a scalar from the highest file that sets it (managed, local, project, user), lists joined. What
 * a project or local file may widen (turn the sandbox off, allow writes, hosts, unsandboxed
 * commands, auto-allow) holds only in a trusted workspace; what it narrows (deny lists) always.
 * Pure: from the recorded fact, never from a file read now.
 */
import type { PermissionSettingsFile, PermissionSettingsRead, SandboxSettings } from "../../journal/facts/index.ts";

/** The keys a session's sandbox is built from, every one resolved to its value in force. */
export type SandboxInForce = {
  /** Unset means on in verbatim; false is the user's explicit choice. */
  enabled: boolean;
  /** Whether the sandbox was turned off by a settings file (`sandbox.enabled: false`), and by which. */
  disabledBy?: string;
  autoAllowBashIfSandboxed: boolean;
  allowUnsandboxedCommands: boolean;
  excludedCommands: string[];
  enableWeakerNestedSandbox: boolean;
  allowWrite: string[];
  denyWrite: string[];
  denyRead: string[];
  allowRead: string[];
  allowedDomains: string[];
  deniedDomains: string[];
  allowLocalBinding: boolean;
  allowUnixSockets: string[];
  allowAllUnixSockets: boolean;
  httpProxyPort?: number;
  socksProxyPort?: number;
  strictAllowlist: boolean;
};

const rank = (scope: PermissionSettingsFile["scope"]) => ({ managed: 3, local: 2, project: 1, user: 0 })[scope];

/** A project or local file's widening keys wait for trust. */
const widens = (settings: PermissionSettingsRead | undefined, file: PermissionSettingsFile) =>
  settings?.trusted === true || (file.scope !== "project" && file.scope !== "local");

export function sandboxInForce(settings: PermissionSettingsRead | undefined): SandboxInForce {
  const files = [...(settings?.files ?? [])].filter((f) => f.sandbox).sort((a, b) => rank(b.scope) - rank(a.scope));
  const trusted = files.filter((f) => widens(settings, f));
  const scalar = <T>(pick: (s: SandboxSettings) => T | undefined, from = trusted): [T, string] | undefined => {
    for (const file of from) {
      const value = pick(file.sandbox as SandboxSettings);
      if (value !== undefined) return [value, file.path];
    }
    return undefined;
  };
  const list = (pick: (s: SandboxSettings) => string[] | undefined, from = trusted) => [
    ...new Set(from.flatMap((f) => pick(f.sandbox as SandboxSettings) ?? [])),
  ];
  const enabled = scalar((s) => s.enabled);
  const on = enabled === undefined || enabled[0];
  return {
    enabled: on,
    ...(on ? {} : { disabledBy: enabled?.[1] }),
    autoAllowBashIfSandboxed: scalar((s) => s.autoAllowBashIfSandboxed)?.[0] ?? true,
    allowUnsandboxedCommands: scalar((s) => s.allowUnsandboxedCommands)?.[0] ?? true,
    excludedCommands: list((s) => s.excludedCommands),
    enableWeakerNestedSandbox: scalar((s) => s.enableWeakerNestedSandbox)?.[0] ?? false,
    allowWrite: list((s) => s.filesystem?.allowWrite),
    denyWrite: list((s) => s.filesystem?.denyWrite, files),
    denyRead: list((s) => s.filesystem?.denyRead, files),
    allowRead: list((s) => s.filesystem?.allowRead),
    allowedDomains: list((s) => s.network?.allowedDomains),
    deniedDomains: list((s) => s.network?.deniedDomains, files),
    allowLocalBinding: scalar((s) => s.network?.allowLocalBinding)?.[0] ?? false,
    allowUnixSockets: list((s) => s.network?.allowUnixSockets),
    allowAllUnixSockets: scalar((s) => s.network?.allowAllUnixSockets)?.[0] ?? false,
    ...optional("httpProxyPort", scalar((s) => s.network?.httpProxyPort)?.[0]),
    ...optional("socksProxyPort", scalar((s) => s.network?.socksProxyPort)?.[0]),
    // Strictness narrows: any file may ask for it.
    strictAllowlist: scalar((s) => s.network?.strictAllowlist, files)?.[0] ?? false,
  };
}

const optional = <K extends string>(key: K, value: number | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, number>>;
