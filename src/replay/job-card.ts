/**
 * A background job on the card of the `Bash` call that started it: the card stays in progress
 * while the job runs, its content grows with the recorded output (the latest part of it), and
 * the job's end settles it with a line saying how it ended. Pure.
 */
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { textContent } from "../journal/facts/display-shapes.ts";
import type { FactOf } from "../journal/facts/index.ts";
import type { Card, CardJob } from "./card.ts";

export type { CardJob } from "./card.ts";

/** The most recent output a job's card shows, in characters. */
export const JOB_CARD_TAIL = 4000;

export function jobStarted(card: Card, fact: FactOf<"job_started">): void {
  card.job = { jobId: fact.jobId, outputPath: fact.outputPath, base: card.body, tail: "", chars: 0, dropped: 0 };
  card.meta = { ...card.meta, job: { jobId: fact.jobId, outputPath: fact.outputPath, running: true } };
  card.body = jobBody(card.job);
}

/** The call's own result arrived: it goes above the job's output; the card stays open while the job runs. */
export function jobCallFinished(card: Card, job: CardJob, content: ToolCallContent[]): void {
  job.base = content;
  card.body = jobBody(job);
  if (!job.ended) card.status = "in_progress";
}

export function jobOutput(card: Card, job: CardJob, fact: FactOf<"job_output">): void {
  const text = outputText(fact);
  job.chars += text.length;
  job.dropped += fact.dropped ?? 0;
  job.tail = (job.tail + text).slice(-JOB_CARD_TAIL);
  card.body = jobBody(job);
}

/** The job ended: its card settles, with a line saying how. Also how a load shows a job the agent's death left running. */
export function jobEnded(card: Card, job: CardJob, fact: FactOf<"job_ended">): void {
  job.ended = fact;
  const failed = fact.by === "interrupted" || fact.by === "timeout" || (fact.by === "exit" && fact.exitCode !== 0);
  card.status = failed ? "failed" : "completed";
  card.meta = {
    ...card.meta,
    job: { jobId: job.jobId, outputPath: job.outputPath, running: false, ended: endedMeta(fact) },
  };
  card.notes = [...card.notes, textContent(endedLine(fact))];
  card.body = jobBody(job);
}

/** The text of a `job_output` record's block. */
export function outputText(fact: FactOf<"job_output">): string {
  const block = fact.output as { type: string; text?: string; resource?: { text?: string } };
  return block.resource?.text ?? block.text ?? "";
}

function endedMeta(fact: FactOf<"job_ended">) {
  const { kind: _kind, jobId: _id, toolCallId: _call, ...rest } = fact;
  return rest;
}

export function endedLine(fact: FactOf<"job_ended">): string {
  const id = fact.jobId;
  switch (fact.by) {
    case "exit":
      return fact.exitCode === null || fact.exitCode === undefined
        ? `Background job ${id} ended: killed by signal ${fact.signal ?? "unknown"}.`
        : `Background job ${id} ended: exit code ${fact.exitCode}.`;
    case "model":
      return `Background job ${id} was stopped by the model.`;
    case "session":
      return `Background job ${id} was stopped: its session ended.`;
    case "timeout":
      return `Background job ${id} was killed at its timeout.`;
    case "interrupted":
      return `Interrupted: verbatim stopped while background job ${id} ran; the job was killed when the session was next opened.`;
  }
}

function jobBody(job: CardJob): ToolCallContent[] {
  if (job.chars === 0) return job.base;
  const cut = job.chars > job.tail.length ? `(the last ${job.tail.length} of ${job.chars} characters)\n` : "";
  const dropped = job.dropped > 0 ? `\n(${job.dropped} characters past the recording bound were not recorded.)` : "";
  return [...job.base, textContent(`${cut}${fence(job.tail)}${dropped}`)];
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = "`".repeat(longest + 1);
  return `${marks}\n${text}${text.endsWith("\n") || text === "" ? "" : "\n"}${marks}`;
}
