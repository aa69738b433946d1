/** Who answers a question from this process: what a claim and a controller's request name (journal/answer-claims.ts). */
import type { AnsweredBy } from "../../journal/facts/index.ts";
import { thisProcess } from "../../journal/process-identity.ts";
import { defined } from "../../shared/defined.ts";

/** This process, its machine, and the name of the client it answers for, if known. */
export function answererHere(client: string | undefined): AnsweredBy {
  const { host, pid, startTime } = thisProcess();
  return { pid, host, ...defined({ startTime: startTime || undefined, client }) };
}
