/**
 * Jobs a dead agent left running. The journal names each job's process group by host, leader pid
 * and the leader's start time: a group on this machine whose leader still runs as that same
 * process is the job's, and is killed; a pid reused by another process never matches.
 */
import { readFileSync } from "node:fs";
import type { OpenJob } from "../../replay/state-parts.ts";
import { processStartTime, thisProcess } from "../../journal/process-identity.ts";
import type { FactOf } from "../../journal/facts/index.ts";
import { ProcessTree } from "../process-group.ts";
import { liveJobs } from "./live-jobs.ts";

/**
 * Whether the job's leader still runs on this machine as the process the journal recorded. A job
 * in a client's terminal never does: its process was the client's, reachable only through the
 * connection that died with its agent.
 */
export function jobStillRuns(job: Pick<OpenJob, "host" | "pid" | "startTime">): boolean {
  if (job.host !== thisProcess().host || !job.startTime || job.pid === undefined) return false;
  return processStartTime(job.pid) === job.startTime && !zombie(job.pid);
}

/** A process that has exited and waits to be reaped runs no more. */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.charAt(stat.lastIndexOf(")") + 2) === "Z";
  } catch {
    return false;
  }
}

/** Kills (SIGKILL) the group of each job still running as recorded; returns those it found. */
export function killOrphanJobs(jobs: Iterable<OpenJob>): OpenJob[] {
  const killed: OpenJob[] = [];
  for (const job of jobs) {
    if (!jobStillRuns(job) || job.pid === undefined) continue;
    new ProcessTree(job.pid).signal("SIGKILL");
    killed.push(job);
  }
  return killed;
}

/**
 * After a load with no live process holding the session: kills the groups of the jobs its dead
 * writer left running and hands `recordSoon` each one's end (`interrupted`), for the session's next
 * write. A job this process runs is the session's instance still open here (a resume replaces it):
 * not an orphan.
 */
export function endOrphanJobs(open: Iterable<OpenJob>, recordSoon: (fact: FactOf<"job_ended">) => void): void {
  const orphans = [...open].filter((job) => !liveJobs.runs(job.jobId));
  killOrphanJobs(orphans);
  for (const job of orphans)
    recordSoon({ kind: "job_ended", jobId: job.jobId, toolCallId: job.toolCallId, by: "interrupted" });
}
