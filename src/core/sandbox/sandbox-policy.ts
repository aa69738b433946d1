/**
 * The policy a session's command runs under, from the session's facts: writes only inside the
 * session's directories (its roots, granted directories, `sandbox.filesystem.allowWrite`) and the
 * sandbox's own temp folder; reads everywhere except secrets (the user's keys and credential
 * files, verbatim's own config and journal folders), `sandbox.filesystem.denyRead` and the paths of
 * `Read` deny rules; network only to `sandbox.network.allowedDomains` and the hosts `WebFetch`
 * allow rules name (an "always" answer about a blocked host is such a rule). Plan mode: no writes.
 */
import { isAbsolute, join, resolve } from "node:path";
import type { SandboxPolicy } from "../../journal/facts/index.ts";
import type { SandboxInForce } from "./sandbox-settings.ts";

/** The user's secrets no sandboxed command reads, relative to the home folder. */
const HOME_SECRETS = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".azure",
  ".kube",
  ".docker/config.json",
  ".config/gcloud",
  ".config/gh",
  ".netrc",
  ".git-credentials",
  ".npmrc",
  ".pypirc",
  ".claude/.credentials.json",
  ".local/share/keyrings",
  "Library/Keychains",
];

export type PolicyInputs = {
  inForce: SandboxInForce;
  /** The absolute globs of the session's `Read` deny rules, and the hosts its `WebFetch` allow rules name. */
  readDenies: readonly string[];
  fetchHosts: readonly string[];
  home: string;
  cwd: string;
  /** The session's directories and those granted since. */
  roots: readonly string[];
  /** verbatim's own folders: its config and its journal. */
  ownFolders: readonly string[];
  /** Files inside those a command reads all the same (the session's env file, which every command sources). */
  ownReadable: readonly string[];
  readOnly: boolean;
};

export function sandboxPolicy(p: PolicyInputs): SandboxPolicy {
  const at = (path: string) =>
    path === "~" || path.startsWith("~/")
      ? join(p.home, path.slice(1))
      : isAbsolute(path)
        ? path
        : resolve(p.cwd, path);
  return {
    writable: p.readOnly ? [] : unique([...p.roots, ...p.inForce.allowWrite.map(at)]),
    unwritable: unique(p.inForce.denyWrite.map(at)),
    unreadable: unique([
      ...HOME_SECRETS.map((s) => join(p.home, s)),
      ...p.ownFolders,
      ...p.inForce.denyRead.map(at),
      ...p.readDenies,
    ]),
    ...nonEmpty("readable", unique([...p.inForce.allowRead.map(at), ...p.ownReadable])),
    allowedHosts: unique([...p.inForce.allowedDomains, ...p.fetchHosts]),
    deniedHosts: unique(p.inForce.deniedDomains),
    localBinding: p.inForce.allowLocalBinding,
    ...(p.readOnly ? { readOnly: true } : {}),
  };
}

const unique = (xs: string[]) => [...new Set(xs)];

const nonEmpty = <K extends string>(key: K, xs: string[]) =>
  (xs.length ? { [key]: xs } : {}) as Partial<Record<K, string[]>>;
