/**
 * What an imported session may do. An export is a file from elsewhere: its records are the
 * session's history and are imported as they are, but what they allowed where the session ran
 * (its "always" rules, its directory grants, its additional directories, a mode that runs calls
 * unasked) is not this user's say here. The import ends the session's records with facts that
 * say what holds from now on: the mode set back to Default (a recorded, visible mode change), and
 * `session_imported` with the rules, grants and additional directories kept, none unless the
 * user kept them (`--keep-permissions`), and the directory the file says it worked in (its origin).
 */
import type { Fact } from "../journal/facts/index.ts";
import type { SessionStateFold } from "../replay/state.ts";
import { UNASKED_MODES } from "./session-standing.ts";

const SAFE_MODE = "default";

/** The facts that end an imported session's records (see above); `keep` keeps what the file allowed. */
export function importedAuthority(state: SessionStateFold, keep: boolean): Fact[] {
  const facts: Fact[] = [];
  if (!keep && UNASKED_MODES.has(state.modeId)) {
    facts.push({
      kind: "config_changed",
      configId: "mode",
      value: SAFE_MODE,
      configOptions: state.configOptions.map((o) =>
        o.id === "mode" && o.type === "select" ? { ...o, currentValue: SAFE_MODE } : o,
      ),
      modeId: SAFE_MODE,
    });
  }
  facts.push({
    kind: "session_imported",
    additionalDirectories: keep ? [...state.additionalDirectories] : [],
    rules: keep ? state.rules.map((r) => ({ ...r })) : [],
    grantedDirectories: keep ? [...state.grantedDirectories] : [],
    fromCwd: state.cwd,
  });
  return facts;
}
