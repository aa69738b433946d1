/** Operations on a stored session that do not open it: the same for the wire layer and the CLI. */
import { busy } from "../../journal/errors.ts";
import { isThisProcess } from "../../journal/process-identity.ts";
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import type { FactStore, LeaseStore } from "../../journal/store.ts";
import { SessionStateFold } from "../../replay/state.ts";
import { removeEnvFile } from "../hooks/env-file.ts";
import type { EngineDeps } from "./session-types.ts";
import { rmSync } from "node:fs";
import { killOrphanJobs } from "../jobs/orphan-jobs.ts";
import { jobsDirectory } from "../jobs/session-jobs.ts";
import type { OpenJob } from "../../replay/state-parts.ts";

// Its own module, so that a load replayed before the engine has loaded reaches none of the rest of this one.
export { openCallsInterrupted } from "./open-calls.ts";

/** Throws JournalError `busy` when another live process holds the session (a delete it would refuse, asked before the session is closed here). */
export async function refuseHeldElsewhere(store: Pick<LeaseStore, "holder">, sessionId: string): Promise<void> {
  const holder = await store.holder(sessionId);
  if (holder && !isThisProcess(holder)) throw busy(sessionId, holder);
}

/** A session's mode and config options as of record `upToSeq`, as they were last shown (its authority records say them). */
export async function shownModesAt(
  store: Pick<FactStore, "authority">,
  sessionId: string,
  upToSeq: number,
): Promise<{ modes: SessionModeState; configOptions: SessionConfigOption[] }> {
  const state = new SessionStateFold();
  for (const record of await store.authority(sessionId, upToSeq)) state.apply(record.fact, record.seq);
  return {
    modes: { currentModeId: state.modeId, availableModes: state.availableModes },
    configOptions: state.configOptions,
  };
}

/**
 * Deletes a session: its journal (refused with a JournalError while another live process holds
 * it) and its hooks' env file. False when the journal has no such session. Close the session
 * first if this process has it open.
 */
export async function deleteStoredSession(
  deps: Pick<EngineDeps, "store" | "hooks">,
  sessionId: string,
): Promise<boolean> {
  // Jobs end with their session: those a dead writer left running are killed first (a live holder refuses the delete).
  const holder = await deps.store.holder(sessionId);
  const jobs = holder ? [] : await openJobs(deps.store, sessionId);
  if (!(await deps.store.delete(sessionId))) return false;
  killOrphanJobs(jobs);
  // The jobs' output files go with the session.
  rmSync(jobsDirectory(sessionId), { recursive: true, force: true });
  removeEnvFile(deps.hooks?.env ?? process.env, sessionId);
  return true;
}

/** The jobs a session started and did not record ended (a session that forked or imported another's history owns none of its jobs). */
async function openJobs(store: Pick<FactStore, "readPages">, sessionId: string): Promise<OpenJob[]> {
  const open = new Map<string, OpenJob>();
  for await (const page of store.readPages(sessionId)) {
    for (const { fact } of page) {
      if (fact.kind === "job_started") open.set(fact.jobId, { ...fact });
      else if (fact.kind === "job_ended") open.delete(fact.jobId);
      else if (fact.kind === "session_forked" || fact.kind === "session_imported") open.clear();
    }
  }
  return [...open.values()];
}
