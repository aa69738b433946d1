/**
 * What happens while a turn runs that the transcript draws only once it is final, reported on
 * stderr as it happens: a card as it is announced, when it starts running, a command's output as
 * its progress updates bring it (only the lines not shown yet, output-tail.ts), how long a long
 * call has been running, and how each permission question was answered by a policy. Everything
 * that came from content (titles, option names, output) is printed through `visible`, a line at
 * a time.
 */
import type { RequestPermissionRequest, RequestPermissionResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import { visible } from "../../view/visible-text.ts";
import { OutputTail, unfenced } from "./output-tail.ts";

type Write = (text: string) => void;

/** Content printed on one line of its own: controls escaped, and its newlines too (a title cannot forge the next line). */
export const oneLine = (text: string) => visible(text).replaceAll("\n", "\\n");

/** A running call is reported once it has run this long, and again at each multiple. */
export const LONG_CALL_SECONDS = 10;

export class ProgressLines {
  readonly #titles = new Map<string, string>();
  /** The output shown so far of each command (an `execute` card) still running. */
  readonly #outputs = new Map<string, OutputTail>();
  /** Calls in progress: when they started and how many whole periods were already reported. */
  readonly #running = new Map<string, { startedAt: number; reported: number }>();

  constructor(
    private readonly progress: Write,
    private readonly now: () => number = () => performance.now(),
  ) {}

  print(update: SessionUpdate): void {
    if (update.sessionUpdate === "tool_call") {
      this.#titles.set(update.toolCallId, oneLine(update.title));
      if (update.kind === "execute") this.#outputs.set(update.toolCallId, new OutputTail());
      this.progress(`… ${oneLine(update.title)}\n`);
      return;
    }
    if (update.sessionUpdate !== "tool_call_update") return;
    this.#output(update);
    if (update.title) this.#titles.set(update.toolCallId, oneLine(update.title));
    const title = this.#titles.get(update.toolCallId) ?? oneLine(update.toolCallId);
    if (update.status === "in_progress" && !this.#running.has(update.toolCallId)) {
      this.#running.set(update.toolCallId, { startedAt: this.now(), reported: 0 });
      this.progress(`▸ running: ${title}\n`);
      return;
    }
    if (update.status !== "completed" && update.status !== "failed") return;
    const running = this.#running.get(update.toolCallId);
    this.#running.delete(update.toolCallId);
    this.#outputs.delete(update.toolCallId);
    if (running && running.reported > 0)
      this.progress(`… ${title}: ${update.status} after ${this.#seconds(running.startedAt)}s\n`);
  }

  /** A running command's new output lines, from an update that carries its card's content (not its end). */
  #output(update: SessionUpdate & { sessionUpdate: "tool_call_update" }): void {
    const tail = this.#outputs.get(update.toolCallId);
    if (!tail || !update.content || !this.#running.has(update.toolCallId)) return;
    if (update.status === "completed" || update.status === "failed") return;
    const first = update.content[0];
    const output =
      first?.type === "content" && first.content.type === "text" ? unfenced(first.content.text) : undefined;
    if (output === undefined) return;
    const lines = tail.next(output);
    if (lines.length > 0) this.progress(lines.map((l) => `  │ ${oneLine(l)}\n`).join(""));
  }

  /** Reports how a permission question was answered by a policy (`--approve`, or none without a terminal). */
  permission(request: RequestPermissionRequest, response: RequestPermissionResponse, policy: string): void {
    const outcome = response.outcome;
    const chosen =
      outcome.outcome === "selected" ? request.options.find((o) => o.optionId === outcome.optionId) : undefined;
    const answer = chosen ? `${oneLine(chosen.name)} (${chosen.kind})` : "cancelled";
    this.progress(
      `? ${oneLine(request.toolCall.title ?? request.toolCall.toolCallId)}: ${answer} by --approve ${policy}\n`,
    );
  }

  /**
   * Reports each call that has been running for another LONG_CALL_SECONDS. Call it
   * periodically (once a second is plenty); it prints nothing while calls are short.
   */
  tick(): void {
    for (const [id, running] of this.#running) {
      const periods = Math.floor(this.#seconds(running.startedAt) / LONG_CALL_SECONDS);
      if (periods <= running.reported) continue;
      running.reported = periods;
      this.progress(`… ${this.#titles.get(id) ?? id}: running for ${periods * LONG_CALL_SECONDS}s\n`);
    }
  }

  #seconds(since: number): number {
    return Math.floor((this.now() - since) / 1000);
  }
}
