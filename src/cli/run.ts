/**
 * `verbatim run`: one prompt through the agent, headless. It goes through the real ACP path in
 * process (the SDK client connected to the agent app), streams the transcript (the one renderer
 * `show` draws with) or JSON lines of updates, and exits with a code that reflects how the turn
 * ended. Permission questions are asked in the terminal when stdin and stderr are one and no
 * `--approve` was given; otherwise `--approve` (default none) answers them.
 *
 * Under --json, stdout holds one JSON object a line: each `session/update` notification as sent,
 * then exactly one last line, `{sessionId, stopReason, messageId, lastMessageId?}` for a turn
 * that ended (the prompt's message id, and the id of the last agent message of the turn: what
 * `verbatim rewind --to` takes to go back to the end of this turn) or
 * `{"error": {code, message, data?}, sessionId?}` for anything else.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { StopReason } from "@agentclientprotocol/sdk";
import { reportError } from "./cli-error.ts";
import { startInProcessAgent, type InProcessAgent } from "./in-process-agent.ts";
import { checkJournalPlace } from "./journal-access.ts";
import type { RunOptions } from "./run-args.ts";
import { openSession } from "./session-open.ts";
import { STDOUT_CLOSED_EXIT, StdoutSink } from "./stdout-sink.ts";
import { terminalPermissions } from "./terminal/answering.ts";
import { ProgressLines } from "./terminal/progress-lines.ts";
import { processScreenOptions, Screen } from "./terminal/screen.ts";
import { TurnMessageIds } from "./turn-message-ids.ts";

export type { RunOptions } from "./run-args.ts";

/** Exit codes: how the turn ended. */
export const exitCodes: Record<StopReason | "error", number> = {
  end_turn: 0,
  error: 1,
  refusal: 3,
  max_tokens: 4,
  max_turn_requests: 5,
  cancelled: 130,
};

export async function run(options: RunOptions): Promise<number> {
  const env = { ...process.env, ...(options.model ? { VERBATIM_MODEL: options.model } : {}) };
  const sink = new StdoutSink();
  const stdout = (text: string) => sink.write(text);
  let journal: string;
  try {
    journal = checkJournalPlace(env, { write: true });
  } catch (error) {
    sink.dispose();
    return reportError(error, { json: options.json, stdout });
  }
  // With --json, stdout carries only JSON lines; progress and questions still go to stderr.
  const screen = new Screen(stdout, (text) => process.stderr.write(text), processScreenOptions(!options.json));
  const stderr = (text: string) => screen.progress(text);
  const progress = new ProgressLines(stderr);
  /** The session, once it exists (created, or found and resumed). */
  let sessionId = "";
  let started: InProcessAgent | undefined;
  const ids = new TurnMessageIds();
  const cancel = () => {
    if (sessionId) void started?.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  };
  const permission = terminalPermissions(options.approve, { screen, progress, cancelTurn: cancel });
  const ticker = setInterval(() => progress.tick(), 1000);
  // A reader that went away (`| head`) ends the turn; what streamed so far stays recorded.
  sink.onClosed(cancel);
  process.on("SIGINT", cancel);
  try {
    started = await startInProcessAgent(env, {
      trust: options.trust,
      permission,
      onUpdate: (n) => {
        ids.note(n.update);
        if (options.json) stdout(`${JSON.stringify(n)}\n`);
        screen.transcript.apply(n.update);
        progress.print(n.update);
      },
    });
    sessionId = await openSession(started.agent, started.deps, options);
    const { stopReason } = await started.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: options.prompt,
    });
    screen.transcript.close();
    if (sink.closed) return closedEnd(sessionId);
    if (options.json) stdout(`${JSON.stringify({ sessionId, stopReason, ...ids.ids() })}\n`);
    stderr(`session ${sessionId} (${stopReason}); continue with: verbatim run --session ${sessionId} "..."\n`);
    return exitCodes[stopReason];
  } catch (error) {
    screen.transcript.flush();
    if (sink.closed && sessionId) return closedEnd(sessionId);
    const exit = reportError(error, {
      json: options.json,
      ...(sessionId ? { sessionId } : {}),
      context: { journal },
      stdout,
    });
    if (sessionId) stderr(`session ${sessionId} (error); continue with: verbatim run --session ${sessionId} "..."\n`);
    return exit;
  } finally {
    clearInterval(ticker);
    process.off("SIGINT", cancel);
    sink.dispose();
    await started?.close();
  }
}

function closedEnd(sessionId: string): number {
  process.stderr.write(
    `session ${sessionId} (stopped: stdout was closed); continue with: verbatim run --session ${sessionId} "..."\n`,
  );
  return STDOUT_CLOSED_EXIT;
}
