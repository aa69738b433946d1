/** What a session's folded state (state.ts) holds beyond its plain fields: leases, file restores, jobs, questions and calls left open. Pure. */
import type { FactOf, FileToRestore } from "../journal/facts/index.ts";

/** A lease holder as a restore compares it: from record `seq` on, the session was written on `host` in `cwd` ("" for an import). */
export type Holder = { seq: number; host: string; cwd: string };

/** A file restore (its card, `restoreId`): what it would put back, whether it was allowed to start, and whether it ended. */
export type RestoreState = {
  restoreId: string;
  toMessageId: string | undefined;
  files: FileToRestore[];
  commandsRun: number;
  /** The prompts the session had when it was planned (a prompt since: the session went on). */
  prompts: number;
  started: boolean;
  ended: boolean;
};

/**
 * A background job still running as far as the journal knows: the process group to kill if its
 * agent died (`pid`, `startTime`), or the client's terminal it ran in (`terminalId`).
 */
export type OpenJob = {
  jobId: string;
  toolCallId: string;
  host: string;
  pid?: number;
  startTime?: string;
  terminalId?: string;
  outputPath: string;
};

/** Where a job runs, as its start recorded it (only the fields it has: a stored state keeps no undefined key). */
export function definedJob(fact: FactOf<"job_started">): Pick<OpenJob, "pid" | "startTime" | "terminalId"> {
  return {
    ...(fact.pid !== undefined ? { pid: fact.pid } : {}),
    ...(fact.startTime !== undefined ? { startTime: fact.startTime } : {}),
    ...(fact.terminalId !== undefined ? { terminalId: fact.terminalId } : {}),
  };
}

/**
 * A question the session has open (asked, not answered yet): a permission question, keyed by its
 * request id, or an AskUserQuestion form, keyed by its call's id.
 */
export type QuestionOpen =
  | { kind: "permission"; requestId: string; toolCallId: string; options: FactOf<"permission_requested">["options"] }
  | {
      kind: "form";
      toolCallId: string;
      message: string;
      requestedSchema: FactOf<"question_asked">["requestedSchema"];
    };

export type OpenCall = { toolCallId: string; providerCallId: string; started: boolean; awaitingPermission: boolean };
