/**
 * A session's background jobs (core/jobs/session-jobs.ts), made when a top-level session first
 * runs one: a subagent's commands end with its call (Claude Code ends a foreground subagent's
 * jobs with it), and CLAUDE_CODE_DISABLE_BACKGROUND_TASKS=1 turns them off. After a load with no
 * live process holding the session, the jobs its dead writer left running are killed
 * (identified by host, pid and start time: orphan-jobs.ts) and recorded ended (`interrupted`) at
 * the session's next write, as the load showed them; loading itself never writes.
 */
import type { Fact, FactOf } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { endOrphanJobs } from "../jobs/orphan-jobs.ts";
import { type JobsHost, SessionJobs } from "../jobs/session-jobs.ts";

export type BackgroundHost = JobsHost & {
  state: SessionStateFold;
  closed(): boolean;
  /** Records a fact at the session's next write (now, if this process writes it). */
  recordSoon(fact: Fact): void;
};

export class BackgroundJobs {
  #jobs: SessionJobs | undefined;

  constructor(private readonly host: BackgroundHost) {}

  /** The session's jobs, made on first use; undefined for a subagent's session, a closed one, or with jobs turned off. */
  now(): SessionJobs | undefined {
    if (this.host.state.parentSessionId !== undefined || this.host.closed()) return undefined;
    if (process.env.CLAUDE_CODE_DISABLE_BACKGROUND_TASKS === "1") return undefined;
    const { sessionId, record, recordInBackground } = this.host;
    this.#jobs ??= new SessionJobs({ sessionId, record, recordInBackground });
    return this.#jobs;
  }

  /** Kills the jobs a dead writer left running; each is recorded ended at the next write. */
  endOrphans(): void {
    endOrphanJobs(this.host.state.openJobs.values(), (fact: FactOf<"job_ended">) => this.host.recordSoon(fact));
  }

  /** Stops the jobs made, if any (the session closes). */
  async close(): Promise<void> {
    await this.#jobs?.close();
  }
}
