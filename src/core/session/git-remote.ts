/**
 * A git remote URL in one comparable form, with no credentials: `host/path` for network remotes
 * (scheme, user, password, port and a trailing `.git` dropped, host lowercased), so the HTTPS and
 * SSH URLs of one repository compare equal; a local path is kept as it is written.
 */
export function normalizeRemote(url: string): string {
  const trimmed = url.trim();
  const scheme = trimmed.match(/^([a-z][a-z0-9+.-]*):\/\/(.*)$/i);
  if (scheme) {
    const [, protocol, rest] = scheme as unknown as [string, string, string];
    if (protocol.toLowerCase() === "file") return stripGit(rest);
    const slash = rest.indexOf("/");
    const authority = slash === -1 ? rest : rest.slice(0, slash);
    const path = slash === -1 ? "" : rest.slice(slash + 1);
    const host = authority
      .slice(authority.lastIndexOf("@") + 1)
      .replace(/:\d*$/, "")
      .toLowerCase();
    return stripGit(`${host}/${path.replace(/^~/, "")}`);
  }
  // scp-like: [user@]host:path (not a Windows drive or a local path)
  const scp = trimmed.match(/^(?:[^@/:]+@)?([^/:]+):(?!\/\/)(.+)$/);
  if (scp && !trimmed.startsWith("/") && !trimmed.startsWith(".")) {
    const [, host, path] = scp as unknown as [string, string, string];
    return stripGit(`${host.toLowerCase()}/${path.replace(/^\/+/, "")}`);
  }
  return stripGit(trimmed);
}

function stripGit(path: string): string {
  return path
    .replace(/\/+$/, "")
    .replace(/\.git$/, "")
    .replace(/\/+$/, "");
}
