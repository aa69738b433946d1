/**
 * The user's home directory: `$HOME`, else the system's account entry. `node:os` is loaded only
 * in that second case: it costs milliseconds to load, and answering `initialize` reads the config
 * files under the home directory.
 */
export const homeDir = (env: Record<string, string | undefined>): string =>
  env.HOME || process.getBuiltinModule("node:os").homedir();
