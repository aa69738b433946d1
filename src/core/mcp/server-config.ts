/**
 * The MCP servers a client gives a session (`mcpServers` of `session/new`, `load`, `resume`), as
 * the engine takes them. The values of `env` and `headers` are secrets: they reach the server and
 * nothing else (never a fact, a notice or a log line).
 */
export type NameValue = { name: string; value: string };

export type McpServerConfig =
  | { transport: "stdio"; name: string; command: string; args: string[]; env: NameValue[] }
  | { transport: "http" | "sse"; name: string; url: string; headers: NameValue[] };

/** The secret values of a server's config, to be masked wherever its words could be shown. */
export function secretsOf(config: McpServerConfig): string[] {
  const pairs = config.transport === "stdio" ? config.env : config.headers;
  const values = pairs.map((p) => p.value);
  if (config.transport !== "stdio") values.push(...urlSecrets(config.url));
  return values.filter((v) => v.length >= 4);
}

/** A URL's password and query values: credentials are sometimes passed there. */
function urlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [decodeURIComponent(parsed.password), parsed.password, ...parsed.searchParams.values()];
  } catch {
    return [];
  }
}

/** `text` with every secret value of the config replaced by `***`. */
export function redact(text: string, config: McpServerConfig): string {
  let out = text;
  for (const secret of secretsOf(config).sort((a, b) => b.length - a.length)) out = out.split(secret).join("***");
  return out;
}
