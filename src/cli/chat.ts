/**
 * `verbatim chat`: an interactive loop at a terminal, on the same in-process ACP path as `run`.
 * A prompt is typed after "› " and Enter sends it; the answer streams through the one renderer;
 * permission questions are asked in place (unless --approve answers them); Ctrl-C cancels the
 * turn that runs (at the prompt it only says how to leave); Ctrl-D on an empty prompt ends.
 * `--session ID` and `--continue` reopen a session with `session/load`, so its transcript is
 * drawn first, exactly as `show` draws it. `/rewind` goes back to an earlier prompt and sends
 * another instead (chat-rewind.ts).
 */
import * as acp from "@agentclientprotocol/sdk";
import { describeError, reportError, usageError } from "./cli-error.ts";
import { AgentSessionStart, agentEnv } from "./agent-session-start.ts";
import { checkJournalPlace } from "./journal-access.ts";
import { isJobsCommand, jobsListing } from "./chat-jobs.ts";
import { chatRewind, isRewindCommand } from "./chat-rewind.ts";
import type { RunOptions } from "./run-args.ts";
import { StdoutSink } from "./stdout-sink.ts";
import { processTerminal, readLine } from "./terminal/line-reader.ts";

export type ChatOptions = Omit<RunOptions, "prompt" | "json">;

export const CHAT_USAGE =
  "usage: verbatim chat [--model M] [--mode MODE] [--cwd DIR] [--approve all|edits|none]\n" +
  "                     [--session ID | --continue] [--trust]";

export const PROMPT = "› ";

export async function chat(options: ChatOptions): Promise<number> {
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true)
    return reportError(
      usageError(
        'verbatim chat needs a terminal to type in; for a script, use: verbatim run "..." (or pipe the prompt: verbatim run -)',
      ),
      { json: false },
    );
  const env = agentEnv(options.model);
  let journal: string;
  try {
    journal = checkJournalPlace(env, { write: true });
  } catch (error) {
    return reportError(error, { json: false });
  }
  /** Whether a turn runs (Ctrl-C then cancels it). */
  let turning = false;
  const start = new AgentSessionStart(new StdoutSink(), {
    approve: options.approve,
    trust: options.trust,
    transcript: true,
    mayCancel: () => turning,
  });
  const { screen } = start;
  const stderr = start.say;
  try {
    const started = await start.open(env, options, { replay: true });
    const sessionId = start.sessionId;
    screen.transcript.flush();
    stderr(
      `session ${sessionId}: type a prompt and Enter; /rewind goes back to an earlier prompt; /jobs lists background jobs; Ctrl-C cancels a turn, Ctrl-D ends\n`,
    );
    const io = processTerminal();
    for (;;) {
      const typed = await readLine(io, PROMPT);
      if (typed.kind === "end") break;
      if (typed.kind === "interrupt") {
        stderr("(no turn is running; Ctrl-D ends the chat)\n");
        continue;
      }
      if (typed.text.trim() === "") continue;
      if (isJobsCommand(typed.text)) {
        stderr(jobsListing(started.client.view(sessionId)));
        continue;
      }
      turning = true;
      try {
        const { agent, client } = started;
        const stopReason = isRewindCommand(typed.text)
          ? await chatRewind({ agent, sessionId, view: client.view(sessionId), io, say: stderr }, typed.text)
          : (
              await agent.request(acp.methods.agent.session.prompt, {
                sessionId,
                prompt: [{ type: "text", text: typed.text }],
              })
            ).stopReason;
        screen.transcript.flush();
        if (stopReason !== undefined && stopReason !== "end_turn") stderr(`(${stopReason})\n`);
      } catch (error) {
        screen.transcript.flush();
        stderr(`verbatim: ${describeError(error, { journal }).body.message}\n`);
      } finally {
        turning = false;
      }
    }
    screen.transcript.close();
    stderr(`session ${sessionId}; continue with: verbatim chat --session ${sessionId}\n`);
    return 0;
  } catch (error) {
    screen.transcript.flush();
    const sessionId = start.sessionId;
    return reportError(error, { json: false, ...(sessionId ? { sessionId } : {}), context: { journal } });
  } finally {
    await start.close();
  }
}
