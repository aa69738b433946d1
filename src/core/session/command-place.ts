/** Where a session's commands, skills and agents are read from, and whether its workspace is trusted. */
import type { SessionStateFold } from "../../replay/state.ts";
import type { CommandPlace } from "../commands/project-commands.ts";
import { isTrusted } from "../hooks/trust.ts";

/** The session's directories, this process's environment, and the trust `verbatim trust` recorded. */
export function commandPlace(state: Pick<SessionStateFold, "cwd" | "additionalDirectories">): CommandPlace {
  return {
    cwd: state.cwd,
    roots: [state.cwd, ...state.additionalDirectories],
    env: process.env,
    trusted: isTrusted(process.env, state.cwd),
  };
}
