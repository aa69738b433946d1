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
import { AgentSessionStart, agentEnv } from "./agent-session-start.ts";
import { checkJournalPlace } from "./journal-access.ts";
import type { RunOptions } from "./run-args.ts";
import { STDOUT_CLOSED_EXIT, StdoutSink } from "./stdout-sink.ts";
import { TurnMessageIds } from "./turn-message-ids.ts";
import { stopReasonWords } from "../view/stop-reason-words.ts";

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
  const env = agentEnv(options.model, options.maxTurns);
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
  const start = new AgentSessionStart(sink, {
    approve: options.approve,
    trust: options.trust,
    transcript: !options.json,
  });
  const { screen } = start;
  const stderr = start.say;
  const ids = new TurnMessageIds();
  // A reader that went away (`| head`) ends the turn; what streamed so far stays recorded.
  sink.onClosed(start.cancel);
  try {
    const { agent } = await start.open(env, options, {
      replay: false,
      onUpdate: (n) => {
        ids.note(n.update);
        if (options.json) stdout(`${JSON.stringify(n)}\n`);
      },
    });
    const sessionId = start.sessionId;
    const { stopReason } = await start.turn(() =>
      agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: options.prompt }),
    );
    screen.transcript.close();
    if (sink.closed) return closedEnd(sessionId);
    if (options.json) stdout(`${JSON.stringify({ sessionId, stopReason, ...ids.ids() })}\n`);
    stderr(
      `session ${sessionId} (${stopReasonWords(stopReason)}); continue with: verbatim run --session ${sessionId} "..."\n`,
    );
    return exitCodes[stopReason];
  } catch (error) {
    const sessionId = start.sessionId;
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
    await start.close();
  }
}

function closedEnd(sessionId: string): number {
  process.stderr.write(
    `session ${sessionId} (stopped: stdout was closed); continue with: verbatim run --session ${sessionId} "..."\n`,
  );
  return STDOUT_CLOSED_EXIT;
}
