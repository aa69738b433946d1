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
import { startInProcessAgent, type InProcessAgent } from "./in-process-agent.ts";
import { checkJournalPlace } from "./journal-access.ts";
import { chatRewind, isRewindCommand } from "./chat-rewind.ts";
import type { RunOptions } from "./run-args.ts";
import { openSession } from "./session-open.ts";
import { StdoutSink } from "./stdout-sink.ts";
import { terminalPermissions } from "./terminal/answering.ts";
import { processTerminal, readLine } from "./terminal/line-reader.ts";
import { ProgressLines } from "./terminal/progress-lines.ts";
import { processScreenOptions, Screen } from "./terminal/screen.ts";

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
  const env = { ...process.env, ...(options.model ? { VERBATIM_MODEL: options.model } : {}) };
  let journal: string;
  try {
    journal = checkJournalPlace(env, { write: true });
  } catch (error) {
    return reportError(error, { json: false });
  }
  const sink = new StdoutSink();
  const screen = new Screen(
    (text) => sink.write(text),
    (text) => process.stderr.write(text),
    processScreenOptions(true),
  );
  const stderr = (text: string) => screen.progress(text);
  const progress = new ProgressLines(stderr);
  let sessionId = "";
  let started: InProcessAgent | undefined;
  /** Whether a turn runs (Ctrl-C then cancels it). */
  let turning = false;
  const cancel = () => {
    if (turning && sessionId) void started?.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  };
  const permission = terminalPermissions(options.approve, { screen, progress, cancelTurn: cancel });
  const ticker = setInterval(() => progress.tick(), 1000);
  process.on("SIGINT", cancel);
  try {
    started = await startInProcessAgent(env, {
      trust: options.trust,
      permission,
      onUpdate: (n) => {
        screen.transcript.apply(n.update);
        progress.print(n.update);
      },
    });
    sessionId = await openSession(started.agent, started.deps, options, { replay: true });
    screen.transcript.flush();
    stderr(
      `session ${sessionId}: type a prompt and Enter; /rewind goes back to an earlier prompt; Ctrl-C cancels a turn, Ctrl-D ends\n`,
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
    return reportError(error, { json: false, ...(sessionId ? { sessionId } : {}), context: { journal } });
  } finally {
    clearInterval(ticker);
    process.off("SIGINT", cancel);
    sink.dispose();
    await started?.close();
  }
}
