/**
 * `WebFetch(domain:...)`: a host, compared without regard to case. `*.example.com` covers its
 * subdomains at any depth but not `example.com` itself; any other `*` stays within one label. Pure.
 */
export function domainMatches(pattern: string, host: string): boolean {
  const wanted = pattern.toLowerCase();
  const actual = host.toLowerCase().replace(/\.$/, "");
  if (wanted.startsWith("*.")) {
    const apex = wanted.slice(2);
    return !apex.includes("*") ? actual.endsWith(`.${apex}`) : labelGlob(`*.${apex}`).test(actual);
  }
  return labelGlob(wanted).test(actual);
}

const labelGlob = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split("*")
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^.]*")}$`,
  );
