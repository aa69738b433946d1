/**
 * The journal's PostgreSQL URL: where it points (host and port, for messages), its TLS mode, and
 * the same URL without its password. The password goes to the connection and nowhere else: not
 * into the journal, a log line or an error message.
 */
import { JournalError } from "./errors.ts";

export const sslModes = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"] as const;
export type SslMode = (typeof sslModes)[number];

export type PostgresTarget = {
  /** The URL as given (with its password): for the connection only. */
  url: string;
  host: string;
  port: number;
  database: string;
  /** `sslmode` from the URL; PostgreSQL's default is `prefer`. */
  sslMode: SslMode;
  /** `host:port`, for messages. */
  where: string;
};

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** Reads a `postgres://` URL; a malformed one is an error that never repeats its password. */
export function parsePostgresUrl(value: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new JournalError("unreachable", `the journal URL is not a valid URL: ${redactUrl(value)}`);
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1") || "localhost";
  const port = parsed.port ? Number(parsed.port) : 5432;
  const mode = parsed.searchParams.get("sslmode") ?? "prefer";
  if (!(sslModes as readonly string[]).includes(mode)) {
    throw new JournalError("unreachable", `the journal URL's sslmode "${mode}" is not one of ${sslModes.join(", ")}`);
  }
  return {
    url: value,
    host,
    port,
    database:
      decodeURIComponent(parsed.pathname.replace(/^\//, "")) || decodeURIComponent(parsed.username) || "postgres",
    sslMode: mode as SslMode,
    where: `${host.includes(":") ? `[${host}]` : host}:${port}`,
  };
}

/** The URL with any password replaced by `***` (also for strings that do not parse as URLs). */
export function redactUrl(value: string): string {
  return value
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/i, "$1:***@")
    .replace(/([?&]password=)[^&#]*/i, "$1***");
}

/** `text` with every occurrence of the password (raw or URL-encoded) removed: for error messages from the driver. */
export function withoutSecret(text: string, url: string): string {
  let out = redactUrl(text);
  let password = "";
  try {
    password = new URL(url).password;
  } catch {
    return out;
  }
  if (password) {
    for (const form of new Set([password, decodeURIComponent(password)]))
      if (form.length > 0) out = out.split(form).join("***");
  }
  return out;
}
