/**
 * `verbatim chat`: an interactive loop at a terminal, on the same in-process ACP path as `run`.
 * A prompt is typed after "› " in one line editor kept for the whole chat (terminal/line-editor.ts:
 * history, pastes kept whole, a new line with Alt+Enter, Ctrl-J or `\` then Enter, lines typed
 * ahead kept); Enter sends it; the answer streams through the one renderer; permission questions
 * are asked in place through the same editor (unless --approve answers them); Ctrl-C cancels the
 * turn that runs (at the prompt it clears what is typed); Ctrl-D on an empty prompt, `/exit` or
 * `/quit` ends. `/help` and an unknown `/word` are answered here (chat-commands.ts).
 * `--session ID` and `--continue` reopen a session with `session/load`, so its transcript is
 * drawn first, exactly as `show` draws it. `/rewind` goes back to an earlier prompt and sends
 * another instead (chat-rewind.ts).
 */
import * as acp from "@agentclientprotocol/sdk";
import { describeError, reportError, usageError } from "./cli-error.ts";
import { AgentSessionStart, agentEnv } from "./agent-session-start.ts";
import { checkJournalPlace } from "./journal-access.ts";
import { chatEntry, chatHelp, unknownCommand } from "./chat-commands.ts";
import { jobsListing } from "./chat-jobs.ts";
import { chatRewind } from "./chat-rewind.ts";
import type { InProcessAgent } from "./in-process-agent.ts";
import type { RunOptions } from "./run-args.ts";
import { StdoutSink } from "./stdout-sink.ts";
import { LineEditor } from "./terminal/line-editor.ts";
import { processTerminal } from "./terminal/line-reader.ts";

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
  const turn = { running: false };
  // One editor for the whole chat: what is typed while a turn runs waits for the next prompt.
  const editor = new LineEditor(processTerminal(), () => start.cancel());
  const start = new AgentSessionStart(new StdoutSink(), {
    approve: options.approve,
    trust: options.trust,
    transcript: true,
    mayCancel: () => turn.running,
    read: (prompt) => editor.read(prompt),
  });
  const { screen } = start;
  const stderr = start.say;
  try {
    const started = await start.open(env, options, { replay: true });
    const sessionId = start.sessionId;
    screen.transcript.flush();
    stderr(
      `session ${sessionId}: type a prompt and Enter; /help lists the commands and keys; Ctrl-C cancels a turn, Ctrl-D ends\n`,
    );
    await promptLoop({ start, started, editor, journal, turn });
    editor.close();
    screen.transcript.close();
    stderr(`session ${sessionId}; continue with: verbatim chat --session ${sessionId}\n`);
    return 0;
  } catch (error) {
    screen.transcript.flush();
    const sessionId = start.sessionId;
    return reportError(error, { json: false, ...(sessionId ? { sessionId } : {}), context: { journal } });
  } finally {
    editor.close();
    await start.close();
  }
}

/** An open chat: its session, the editor its prompts are typed in, and whether a turn runs (Ctrl-C then cancels it). */
type OpenChat = {
  start: AgentSessionStart;
  started: InProcessAgent;
  editor: LineEditor;
  journal: string;
  turn: { running: boolean };
};

/** Reads prompts until the chat ends: the chat's own commands are answered here; a prompt or `/rewind` runs a turn. */
async function promptLoop(chat: OpenChat): Promise<void> {
  const { start, started, editor } = chat;
  const sessionId = start.sessionId;
  const stderr = start.say;
  const commands = () => started.client.view(sessionId).commands ?? [];
  for (;;) {
    const typed = await editor.read(PROMPT, { history: true });
    if (typed.kind === "end") return;
    if (typed.kind === "interrupt") {
      stderr("(no turn is running; Ctrl-D or /exit ends the chat)\n");
      continue;
    }
    if (typed.text.trim() === "") continue;
    const entry = chatEntry(typed.text, commands());
    if (entry.kind === "exit") return;
    if (entry.kind === "help") {
      stderr(chatHelp(commands()));
      continue;
    }
    if (entry.kind === "unknown") {
      stderr(unknownCommand(entry.command, commands()));
      continue;
    }
    if (entry.kind === "jobs") {
      stderr(jobsListing(started.client.view(sessionId)));
      continue;
    }
    await chatTurn(chat, entry.kind === "rewind", typed.text);
  }
}

/** One turn, from a prompt or a `/rewind`: a turn that fails says why and the chat goes on. */
async function chatTurn(chat: OpenChat, rewind: boolean, text: string): Promise<void> {
  const { start, started, editor } = chat;
  const { agent, client } = started;
  const sessionId = start.sessionId;
  const stderr = start.say;
  chat.turn.running = true;
  try {
    const stopReason = rewind
      ? await chatRewind(
          {
            agent,
            sessionId,
            view: client.view(sessionId),
            read: (p) => editor.read(p),
            say: stderr,
            turn: (request) => start.turn(request),
          },
          text,
        )
      : (
          await start.turn(() =>
            agent.request(acp.methods.agent.session.prompt, {
              sessionId,
              prompt: [{ type: "text", text }],
            }),
          )
        ).stopReason;
    start.screen.transcript.flush();
    // Every other way a turn ends is drawn in the transcript (a refused turn leaves it when reopened).
    if (stopReason === "refusal") stderr("(refusal)\n");
  } catch (error) {
    start.screen.transcript.flush();
    stderr(`verbatim: ${describeError(error, { journal: chat.journal }).body.message}\n`);
  } finally {
    chat.turn.running = false;
  }
}
