import { join } from "node:path";
import { homeDir } from "../shared/home-dir.ts";

/** Where verbatim keeps its data (the journal): $VERBATIM_HOME, else $XDG_DATA_HOME/verbatim. */
export function dataHome(env: Record<string, string | undefined> = process.env): string {
  if (env.VERBATIM_HOME) return env.VERBATIM_HOME;
  const xdg = env.XDG_DATA_HOME || join(homeDir(env), ".local", "share");
  return join(xdg, "verbatim");
}

export const journalFile = (home: string) => join(home, "journal.db");
