/**
 * `/jobs` at the chat prompt: the session's background jobs as its cards show them (the job's id,
 * whether it runs, its command and output file), drawn from the client's view, so it lists what
 * the journal recorded and asks the agent nothing.
 */
import type { ViewModel } from "../view/view-model.ts";
import { visible } from "../view/visible-text.ts";

export const isJobsCommand = (text: string): boolean => text.trim() === "/jobs";

type JobMeta = {
  jobId: string;
  outputPath: string;
  running: boolean;
  ended?: { by: string; exitCode?: number | null };
};

/** One line per job, oldest first, or a line saying there is none. */
export function jobsListing(view: ViewModel): string {
  const lines = view.timeline.flatMap((entry) => {
    const card = entry.startsWith("tool:") ? view.toolCalls[entry.slice("tool:".length)] : undefined;
    const job = (card?.meta?.verbatim as { job?: JobMeta } | undefined)?.job;
    if (!card || !job) return [];
    const state = job.running
      ? "running"
      : `ended (${job.ended?.by === "exit" ? `exit code ${job.ended.exitCode ?? "none"}` : (job.ended?.by ?? "unknown")})`;
    // The command and path came from the model: escapes shown, never run.
    return [`${job.jobId}  ${state}  ${visible(card.title)}\n    output: ${visible(job.outputPath)}`];
  });
  return lines.length ? `${lines.join("\n")}\n` : "(no background jobs in this session)\n";
}
