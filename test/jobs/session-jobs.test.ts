/**
 * A session's jobs on their own (no agent): output recorded as it flows, within its bounds, long
 * output stored through the blob store; a background run's timeout; TaskOutput and the aliases of
 * Claude Code's older tool names; the end of a session stopping every job with its whole process group.
 */
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { SessionJobs } from "../../src/core/jobs/session-jobs.ts";
import { JobProcess } from "../../src/core/tools/shell/job-process.ts";
import { defaultTools, ToolRegistry } from "../../src/core/tools/registry.ts";
import { encodeFact } from "../../src/journal/codec.ts";
import type { Fact, FactOf } from "../../src/journal/facts/index.ts";
import { processStartTime } from "../../src/journal/process-identity.ts";
import { SessionStateFold } from "../../src/replay/state.ts";
import { runTool } from "../support/tool-run.ts";
import { bashTool } from "../../src/core/tools/bash.ts";
import { sandbox } from "../support/workspace.ts";

/** Whether `pid` still runs as the process that started at `start` (a zombie waiting to be reaped has stopped). */
function runsAs(pid: number, start: string | undefined): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return processStartTime(pid) === start && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

function jobsRecording(bounds?: { perJob: number; perSession: number }) {
  const facts: Fact[] = [];
  const record = async (fact: Fact) => {
    facts.push(fact);
  };
  const jobs = new SessionJobs(
    { sessionId: `ses_jobs_${Math.random().toString(36).slice(2)}`, record, recordInBackground: (f) => void record(f) },
    bounds,
  );
  return { jobs, facts };
}

const start = (jobs: SessionJobs, command: string, cwd: string) =>
  jobs.start({
    command,
    shown: command,
    toolCallId: "call_1",
    cwd,
    env: { PATH: process.env.PATH ?? "" },
    timeoutMs: 60_000,
  });

async function ended(facts: Fact[]) {
  for (let i = 0; i < 400 && !facts.some((f) => f.kind === "job_ended"); i++) await Bun.sleep(10);
  return facts.find((f): f is FactOf<"job_ended"> => f.kind === "job_ended");
}

const recordedText = (facts: Fact[]) =>
  facts
    .filter((f): f is FactOf<"job_output"> => f.kind === "job_output")
    .map((f) => (f.output as { resource: { text: string } }).resource.text)
    .join("");

describe("a session's background jobs", () => {
  test("output goes whole to the output file and is recorded up to the job's bound, the rest counted", async () => {
    const { jobs, facts } = jobsRecording({ perJob: 10, perSession: 1000 });
    const job = await start(jobs, "printf 'abcdefghijklmnopqrstuvwxyz'", sandbox().workspace);
    expect((await ended(facts))?.outputChars).toBe(26);
    expect(readFileSync(job.outputPath, "utf8")).toBe("abcdefghijklmnopqrstuvwxyz");
    expect(recordedText(facts)).toBe("abcdefghij");
    const dropped = facts.reduce((n, f) => n + (f.kind === "job_output" ? (f.dropped ?? 0) : 0), 0);
    expect(dropped).toBe(16);
  });

  test("the session's bound holds across its jobs", async () => {
    const { jobs, facts } = jobsRecording({ perJob: 100, perSession: 5 });
    const ws = sandbox().workspace;
    await start(jobs, "printf 1234", ws);
    await ended(facts);
    facts.length = 0;
    await start(jobs, "printf 5678", ws);
    await ended(facts);
    expect(recordedText(facts)).toBe("5");
  });

  test("long output is stored once through the blob store, not inline", () => {
    const text = "x".repeat(5000);
    const encoded = encodeFact({
      kind: "job_output",
      jobId: "job_1",
      toolCallId: "call_1",
      output: { type: "resource", resource: { uri: "file:///tmp/job_1.output", mimeType: "text/plain", text } },
    });
    expect(encoded.body).not.toContain(text);
    expect([...encoded.blobs.values()]).toEqual([text]);
  });

  test("closing the session stops every job and its whole process group, and records each end", async () => {
    const { jobs, facts } = jobsRecording();
    const ws = sandbox().workspace;
    await start(jobs, `sleep 300 & echo $! > ${ws}/child.pid; wait`, ws);
    for (let i = 0; i < 200 && !facts.some((f) => f.kind === "job_output"); i++) await Bun.sleep(10);
    let child = 0;
    for (let i = 0; i < 200 && !child; i++) {
      child = Number(readFileSync(`${ws}/child.pid`, { encoding: "utf8", flag: "a+" }).trim());
      if (!child) await Bun.sleep(10);
    }
    const childStart = processStartTime(child);
    expect(childStart).toBeDefined();
    await jobs.close();
    expect(facts.find((f) => f.kind === "job_ended")).toMatchObject({ by: "session" });
    for (let i = 0; i < 300 && runsAs(child, childStart); i++) await Bun.sleep(10);
    expect(runsAs(child, childStart)).toBe(false);
  });

  test("a job still running at its timeout is stopped, and its end says so", async () => {
    const { jobs, facts } = jobsRecording();
    const ws = sandbox().workspace;
    await jobs.start({
      command: "echo up; sleep 300",
      shown: "echo up; sleep 300",
      toolCallId: "call_1",
      cwd: ws,
      env: { PATH: process.env.PATH ?? "" },
      timeoutMs: 300,
    });
    expect(await ended(facts)).toMatchObject({ kind: "job_ended", by: "timeout" });
    expect(recordedText(facts)).toBe("up\n");
  });

  test("TaskOutput waits for the job's end, returns what it printed and how it ended, and never the same output twice", async () => {
    const { jobs } = jobsRecording();
    const ws = sandbox().workspace;
    const job = await start(jobs, "echo first; sleep 0.3; echo second", ws);
    const output = new ToolRegistry(defaultTools()).get("TaskOutput")!;
    const read = await runTool(output, { task_id: job.jobId }, { cwd: ws, jobs });
    expect(read.result.text).toBe("first\nsecond\n\nThe job exited with 0.");
    const again = await runTool(output, { task_id: job.jobId, block: false }, { cwd: ws, jobs });
    expect(again.result.text).toBe("(no new output)\nThe job exited with 0.");
  });

  test("a command handed over at its timeout after its session ended ends with it, not in the background", async () => {
    const { jobs, facts } = jobsRecording();
    await jobs.close();
    const command = new JobProcess({
      command: "sleep 300",
      cwd: sandbox().workspace,
      env: { PATH: process.env.PATH ?? "" },
    });
    const handing = jobs.adopt({
      process: command,
      shown: "sleep 300",
      toolCallId: "call_1",
      soFar: "",
      movedAtTimeoutMs: 100,
    });
    expect(handing).rejects.toThrow("the session is closing");
    await handing.catch(() => undefined);
    expect(command.running).toBe(false);
    expect(facts).toEqual([]);
  });

  test("KillShell and BashOutput (Claude Code's older names) reach TaskStop and TaskOutput", async () => {
    const { jobs, facts } = jobsRecording();
    const ws = sandbox().workspace;
    const job = await start(jobs, "echo ready; sleep 300", ws);
    const registry = new ToolRegistry(defaultTools());
    expect(registry.get("KillBash")?.name).toBe("TaskStop");
    const output = registry.get("BashOutput")!;
    let read = "";
    for (let i = 0; i < 200 && !read.includes("ready"); i++) {
      read += (await runTool(output, { bash_id: job.jobId }, { cwd: ws, jobs })).result.text;
      await Bun.sleep(10);
    }
    expect(read).toContain("ready");
    const stopped = await runTool(registry.get("KillShell")!, { shell_id: job.jobId }, { cwd: ws, jobs });
    expect(stopped.result.text).toBe(`Job ${job.jobId} was stopped, with every process it started.`);
    expect((await ended(facts))?.by).toBe("model");
    const again = await runTool(registry.get("TaskStop")!, { task_id: "job_none" }, { cwd: ws, jobs });
    expect(again.result).toEqual({ text: "No background job with id job_none in this session.", isError: true });
  });

  test("a fork owns none of the jobs of the history it began with: a load of it kills nothing", () => {
    const fold = new SessionStateFold();
    fold.apply(
      {
        kind: "job_started",
        jobId: "job_1",
        toolCallId: "call_1",
        command: "sleep 300",
        outputPath: "/tmp/job_1.output",
        host: "here",
        pid: 42,
        startTime: "7",
      },
      1,
    );
    expect([...fold.openJobs.keys()]).toEqual(["job_1"]);
    fold.apply({ kind: "session_forked", fromSessionId: "ses_source", fromSeq: 1 }, 2);
    expect(fold.openJobs.size).toBe(0);
  });

  test("a foreground command that ends in time reports nothing after its result, though a child still prints", async () => {
    const { jobs, facts } = jobsRecording();
    const ws = sandbox().workspace;
    const progress: ToolCallContent[][] = [];
    const outcome = await runTool(
      bashTool,
      { command: "(sleep 0.8; echo late) & echo now" },
      { cwd: ws, jobs, progress },
    );
    expect(outcome.result.text).toBe("now\n\nExit code 0");
    const shown = progress.length;
    await Bun.sleep(1500);
    expect(progress.length).toBe(shown);
    expect(facts).toEqual([]);
  });
});
