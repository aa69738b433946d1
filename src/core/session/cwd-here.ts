/** A session continues only where its directory is: one recorded elsewhere is taken over by an import. */
import { statSync } from "node:fs";
import { EngineError } from "../errors.ts";

/** Throws `cwd_missing` (saying how to take the session over) unless `cwd` is a directory on this machine. */
export function checkCwdHere(sessionId: string, cwd: string): void {
  if (statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) return;
  throw new EngineError(
    "cwd_missing",
    `session ${sessionId} ran in ${cwd}, which is not a directory on this machine, so it cannot continue here. ` +
      `To take it over in a directory of yours: verbatim export ${sessionId} --file F, then verbatim import F --cwd DIR --new-id ` +
      "(or, for a session exported elsewhere, verbatim import F --cwd DIR)",
    { sessionId, cwd },
  );
}
