/**
 * A session's background jobs. Each job's output goes to its output file (which the model reads
 * with `Read`) and is recorded as it arrives (`job_output`, in groups of at most JOB_FLUSH_MS),
 * up to a bound per job and per session; past it, output still reaches the file and the count
 * left out is recorded. A job ends when its command exits, when the model stops it, at its
 * timeout, or with its session; each end is recorded (`job_ended`) after the job's last output.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Fact, JobEndedBy } from "../../journal/facts/index.ts";
import { thisProcess } from "../../journal/process-identity.ts";
import { mintId } from "../ids.ts";
import { JobProcess } from "../tools/shell/job-process.ts";
import type { JobEnd, JobRunner } from "../tools/shell/job-runner.ts";
import type { JobControl, JobHandle, JobRead } from "../tools/tool.ts";
import { liveJobs } from "./live-jobs.ts";

/** How long output waits to be recorded with what follows it. */
export const JOB_FLUSH_MS = 200;
/** Output recorded at once when this much is waiting. */
const JOB_FLUSH_CHARS = 64 * 1024;
/** The most output recorded per job and per session, in characters; the rest reaches only the file. */
export const JOB_MAX_RECORDED = 2_000_000;
export const SESSION_MAX_RECORDED = 20_000_000;
/** The most output kept for TaskOutput, which the model has not read. */
const UNREAD_MAX = 1_000_000;
/** How long a job gets after SIGTERM when its session ends (the agent's shutdown is short). */
const SESSION_END_GRACE_MS = 500;

export type JobsHost = {
  sessionId: string;
  /** Appends a fact, then shows it. */
  record(fact: Fact): Promise<void>;
  /** Appends a fact without waiting: a failure is the session's next write's. */
  recordInBackground(fact: Fact): void;
};

type Job = {
  jobId: string;
  toolCallId: string;
  outputPath: string;
  process: JobRunner;
  fd: number;
  pending: string;
  dropped: number;
  recorded: number;
  total: number;
  /** Output TaskOutput has not handed the model yet (its latest UNREAD_MAX characters). */
  unread: string;
  timer: ReturnType<typeof setTimeout> | undefined;
  stoppedBy: JobEndedBy | undefined;
  done: Promise<void>;
  endLine?: string;
};

/** Where this user's job output files live: one directory per session, private to the user. */
export function jobsDirectory(sessionId: string): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : "user";
  return join(tmpdir(), `verbatim-${uid}`, "jobs", sessionId);
}

export class SessionJobs implements JobControl {
  readonly #jobs = new Map<string, Job>();
  #recordedInSession = 0;
  #closed = false;

  constructor(
    private readonly host: JobsHost,
    private readonly bounds = { perJob: JOB_MAX_RECORDED, perSession: SESSION_MAX_RECORDED },
  ) {}

  get directory(): string {
    return jobsDirectory(this.host.sessionId);
  }

  async start(job: Parameters<JobControl["start"]>[0]): Promise<JobHandle> {
    if (this.#closed) throw new Error("the session is closing");
    const process = new JobProcess({ command: job.command, cwd: job.cwd, env: job.env });
    return this.adopt({
      process,
      shown: job.shown,
      toolCallId: job.toolCallId,
      soFar: "",
      timeoutMs: job.timeoutMs,
      ...(job.onEnd ? { onEnd: job.onEnd } : {}),
    });
  }

  async adopt(job: Parameters<JobControl["adopt"]>[0]): Promise<JobHandle> {
    if (this.#closed) {
      // The session ended while the command ran in the foreground: it ends with it.
      await job.process.stop(SESSION_END_GRACE_MS);
      await job.onEnd?.().catch(() => undefined);
      throw new Error("the session is closing");
    }
    const handle = await this.#begin(
      job.process,
      job.shown,
      job.toolCallId,
      job.soFar,
      job.movedAtTimeoutMs,
      job.onEnd,
    );
    if (job.timeoutMs !== undefined) {
      const entry = this.#jobs.get(handle.jobId) as Job;
      const timer = setTimeout(() => void this.#stop(entry, "timeout"), job.timeoutMs);
      void entry.done.finally(() => clearTimeout(timer));
    }
    return handle;
  }

  async #begin(
    process: JobRunner,
    shown: string,
    toolCallId: string,
    soFar: string,
    movedAtTimeoutMs?: number,
    onEnd?: () => Promise<unknown>,
  ) {
    const jobId = mintId("job");
    const outputPath = join(this.directory, `${jobId}.output`);
    mkdirSync(dirname(outputPath), { recursive: true, mode: 0o700 });
    const fd = openSync(outputPath, "a", 0o600);
    const job: Job = {
      jobId,
      toolCallId,
      outputPath,
      process,
      fd,
      pending: "",
      dropped: 0,
      recorded: 0,
      total: 0,
      unread: "",
      timer: undefined,
      stoppedBy: undefined,
      done: Promise.resolve(),
    };
    this.#jobs.set(jobId, job);
    liveJobs.add(process, jobId);
    // Output is taken from now on; it is recorded after the job's start.
    process.sink = (chunk) => this.#output(job, chunk);
    if (soFar) this.#output(job, soFar);
    const me = thisProcess();
    await this.host.record({
      kind: "job_started",
      jobId,
      toolCallId,
      command: shown,
      outputPath,
      host: me.host,
      ...process.place,
      ...(movedAtTimeoutMs !== undefined ? { movedAtTimeoutMs } : {}),
    });
    job.done = process.ended.then(async (end) => {
      await onEnd?.().catch(() => undefined);
      await this.#ended(job, end);
    });
    return { jobId, outputPath };
  }

  #output(job: Job, chunk: string): void {
    writeSync(job.fd, chunk);
    job.total += chunk.length;
    job.unread = (job.unread + chunk).slice(-UNREAD_MAX);
    const room = Math.min(this.bounds.perJob - job.recorded, this.bounds.perSession - this.#recordedInSession);
    const kept = room <= 0 ? "" : chunk.slice(0, room);
    job.dropped += chunk.length - kept.length;
    job.recorded += kept.length;
    this.#recordedInSession += kept.length;
    job.pending += kept;
    if (job.pending.length >= JOB_FLUSH_CHARS) this.#flush(job);
    else job.timer ??= setTimeout(() => this.#flush(job), JOB_FLUSH_MS);
  }

  /** Records what waits (in line with every other write of the session). */
  #flush(job: Job): void {
    clearTimeout(job.timer);
    job.timer = undefined;
    if (!job.pending && !job.dropped) return;
    const text = job.pending;
    const dropped = job.dropped;
    job.pending = "";
    job.dropped = 0;
    this.host.recordInBackground({
      kind: "job_output",
      jobId: job.jobId,
      toolCallId: job.toolCallId,
      output: { type: "resource", resource: { uri: `file://${job.outputPath}`, mimeType: "text/plain", text } },
      ...(dropped ? { dropped } : {}),
    });
  }

  async #ended(job: Job, end: JobEnd): Promise<void> {
    this.#flush(job);
    liveJobs.delete(job.process);
    closeSync(job.fd);
    const by = job.stoppedBy ?? "exit";
    const fact: Fact = {
      kind: "job_ended",
      jobId: job.jobId,
      toolCallId: job.toolCallId,
      by,
      exitCode: end.exitCode,
      signal: end.signal,
      outputChars: job.total,
    };
    job.endLine = by === "exit" ? `exited with ${end.exitCode ?? `signal ${end.signal}`}` : `was stopped (${by})`;
    await this.host.record(fact).catch(() => undefined);
  }

  #stop(job: Job, by: JobEndedBy, graceMs?: number): Promise<void> {
    if (job.stoppedBy === undefined && job.process.running) job.stoppedBy = by;
    return job.process.stop(graceMs).then(() => job.done);
  }

  async stop(jobId: string): Promise<string | undefined> {
    const job = this.#jobs.get(jobId);
    if (!job) return undefined;
    if (!job.process.running) return `Job ${jobId} had already ended (${job.endLine ?? "exited"}).`;
    await this.#stop(job, "model");
    return `Job ${jobId} was stopped, with every process it started.`;
  }

  async read(jobId: string, waitMs: number, maxChars: number): Promise<JobRead | undefined> {
    const job = this.#jobs.get(jobId);
    if (!job) return undefined;
    if (waitMs > 0 && job.process.running) await Promise.race([job.done, Bun.sleep(waitMs)]);
    const text = job.unread.slice(0, maxChars);
    job.unread = job.unread.slice(text.length);
    return {
      text,
      ...(job.unread.length ? { more: job.unread.length } : {}),
      ...(job.endLine ? { ended: job.endLine } : {}),
    };
  }

  outputRoot(path: string): string | undefined {
    const full = resolve(path);
    for (const job of this.#jobs.values()) if (job.outputPath === full) return this.directory;
    return undefined;
  }

  /** Stops every job (the session ends) and waits for their ends to be recorded. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#jobs.values()].map((job) => this.#stop(job, "session", SESSION_END_GRACE_MS)));
  }
}
