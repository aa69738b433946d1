/**
 * The environment the model's commands run in: verbatim's own, minus every secret verbatim holds.
 * A command the model writes can print its environment into the journal and back to the model,
 * so nothing verbatim keeps secret may be in it:
 * - the variables verbatim reads keys from (`SECRET_VARIABLES`) and every `apiKeyEnv` the config
 *   files name;
 * - any variable whose value contains a secret value verbatim holds (a provider key, from the
 *   environment or a config file's `apiKey`; a configured provider header; an MCP server's `env`
 *   and `headers` values; the journal's URL and its password), whatever its name: a copy such as
 *   `DATABASE_URL` is as secret as the original.
 * What a command sees on top: `COMMAND_SETTINGS` (no pager, no git password prompt). Hooks are
 * the user's own code and are not run through this (they get what Claude Code gives hooks).
 */
type Env = Record<string, string | undefined>;

/** What verbatim holds as secret: variable names, and values (matched anywhere in a variable's value). */
export type CommandSecrets = { names: readonly string[]; values: readonly string[] };

/** Variables verbatim reads secrets from, whatever the config says. */
const SECRET_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "OPENAI_API_KEY",
  // A PostgreSQL journal's URL may carry its password; libpq reads a password from PGPASSWORD.
  "VERBATIM_JOURNAL",
  "PGPASSWORD",
] as const;

/**
 * What a journal URL (`VERBATIM_JOURNAL`, `journal.url`) holds secret: the URL itself and its
 * password, as written and decoded, from the user part or a `password=` parameter.
 */
export function journalUrlSecrets(url: string | undefined): string[] {
  const value = url?.trim();
  if (!value) return [];
  const found = [value];
  if (URL.canParse(value)) {
    const parsed = new URL(value);
    for (const password of [parsed.password, parsed.searchParams.get("password") ?? ""]) {
      found.push(password);
      try {
        found.push(decodeURIComponent(password));
      } catch {
        // Not valid percent-encoding: the password as written is the one the server gets.
      }
    }
  }
  return [...new Set(found)].filter((v) => v !== "");
}

/** Set for every command: output is never paged, and git never waits for a password. */
const COMMAND_SETTINGS = { PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" } as const;

/** A value this short is not matched inside others (it would remove innocent variables). */
const MIN_SECRET_LENGTH = 8;

export type CommandEnvironment = {
  /** The variables a local command gets. */
  variables: Record<string, string>;
  /**
   * The names taken out: unset at the start of a command run in the client's terminal, whose
   * environment is the client's (ACP can add variables to it, not remove them).
   */
  removed: string[];
};

/** `base` with the secrets taken out and `COMMAND_SETTINGS` added. */
export function commandEnvironment(base: Env, secrets: CommandSecrets): CommandEnvironment {
  const names = new Set<string>([...SECRET_VARIABLES, ...secrets.names]);
  const values = secrets.values.filter((v) => v.length >= MIN_SECRET_LENGTH);
  const variables: Record<string, string> = {};
  const removed = new Set(names);
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (names.has(name) || values.some((secret) => value.includes(secret))) {
      removed.add(name);
      continue;
    }
    variables[name] = value;
  }
  Object.assign(variables, COMMAND_SETTINGS);
  return { variables, removed: [...removed].filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n)).sort() };
}

/** The line a command in the client's terminal starts with, unsetting `removed` (names are shell-safe). */
export const unsetLine = (removed: readonly string[]): string =>
  removed.length > 0 ? `unset -v ${removed.join(" ")}\n` : "";
