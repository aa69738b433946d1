import { join } from "node:path";
import { homeDir } from "./home-dir.ts";

/** The user's verbatim config folder: `$XDG_CONFIG_HOME/verbatim`, else `~/.config/verbatim`. */
export const userConfigFolder = (env: Record<string, string | undefined>): string =>
  join(env.XDG_CONFIG_HOME || join(homeDir(env), ".config"), "verbatim");
