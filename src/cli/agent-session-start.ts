/**
 * How `run` and `chat` start a session, the same way: the screen, its progress lines and the
 * status line of a turn waiting on the model (ticking each second), the in-process agent with the terminal answering its permission questions (or
 * `--approve`), the chosen session opened, and Ctrl-C cancelling the session's turn. What each
 * command does with the session (one prompt, or a loop) stays in its own file.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import type { PermissionPolicy } from "../client/view-client.ts";
import { startInProcessAgent, type InProcessAgent } from "./in-process-agent.ts";
import type { RunOptions } from "./run-args.ts";
import { openSession, type SessionChoice } from "./session-open.ts";
import type { StdoutSink } from "./stdout-sink.ts";
import { terminalPermissions } from "./terminal/answering.ts";
import type { LineSource } from "./terminal/line-reader.ts";
import { ProgressLines } from "./terminal/progress-lines.ts";
import { WaitIndicator } from "./terminal/wait-indicator.ts";
import { processScreenOptions, Screen } from "./terminal/screen.ts";

/**
 * The environment the agent runs with: `--model` chooses the default model as VERBATIM_MODEL does,
 * and `--max-turns` caps a turn's model requests as VERBATIM_MAX_STEPS does.
 */
export function agentEnv(model: string | undefined, maxTurns?: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...(model ? { VERBATIM_MODEL: model } : {}),
    ...(maxTurns ? { VERBATIM_MAX_STEPS: String(maxTurns) } : {}),
  };
}

export type StartOptions = Pick<RunOptions, "approve" | "trust"> & {
  /** Whether the transcript is drawn on stdout (not under --json, where stdout holds JSON lines). */
  transcript: boolean;
  /** Whether Ctrl-C (or the command's own `cancel`) may cancel a turn now. */
  mayCancel?: () => boolean;
  /** Where questions at the terminal read their answers (the command's line editor); a reader of their own otherwise. */
  read?: LineSource;
};

export class AgentSessionStart {
  readonly screen: Screen;
  readonly progress: ProgressLines;
  /** How long the model has been waited for, on a status line at a terminal. */
  readonly waiting: WaitIndicator;
  /** The session, once it exists (created, or found and resumed or loaded); "" before. */
  sessionId = "";
  started: InProcessAgent | undefined;
  readonly #sink: StdoutSink;
  readonly #options: StartOptions;
  readonly #permission: PermissionPolicy;
  readonly #ticker: ReturnType<typeof setInterval>;

  /** Sets the terminal up on `sink` (which `close` disposes) and listens to SIGINT. */
  constructor(sink: StdoutSink, options: StartOptions) {
    this.#sink = sink;
    this.#options = options;
    // Progress and questions go to stderr, whatever stdout carries.
    this.screen = new Screen(
      (text) => sink.write(text),
      (text) => process.stderr.write(text),
      processScreenOptions(options.transcript),
    );
    this.progress = new ProgressLines(this.say);
    this.waiting = new WaitIndicator((text) => this.screen.status(text));
    this.#permission = terminalPermissions(options.approve, {
      screen: this.screen,
      progress: this.progress,
      cancelTurn: this.cancel,
      ...(options.read ? { read: options.read } : {}),
    });
    this.#ticker = setInterval(() => {
      this.progress.tick();
      this.waiting.tick();
    }, 1000);
    process.on("SIGINT", this.cancel);
  }

  /** A line on stderr, drawn around the transcript. */
  readonly say = (text: string): void => this.screen.progress(text);

  /** Cancels the session's turn, if there is a session (and the command says a turn may be cancelled). */
  readonly cancel = (): void => {
    if ((this.#options.mayCancel?.() ?? true) && this.sessionId)
      void this.started?.agent.notify(acp.methods.agent.session.cancel, { sessionId: this.sessionId });
  };

  /**
   * Starts the agent and opens the chosen session; each update goes to `onUpdate` first, then to
   * the transcript and the progress lines. With `replay`, a continued session is loaded (its
   * transcript sent first) rather than resumed.
   */
  async open(
    env: NodeJS.ProcessEnv,
    choice: SessionChoice,
    how: { replay: boolean; onUpdate?: (n: SessionNotification) => void },
  ): Promise<InProcessAgent> {
    const started = await startInProcessAgent(env, {
      trust: this.#options.trust,
      permission: this.#permission,
      onUpdate: (n) => {
        how.onUpdate?.(n);
        this.waiting.saw(n.update);
        this.screen.transcript.apply(n.update);
        this.progress.print(n.update);
      },
    });
    this.started = started;
    this.sessionId = await openSession(started.agent, started.deps, choice, { replay: how.replay });
    return started;
  }

  /** Runs a turn (a prompt's request): the model is waited for from now until it answers. */
  async turn<T>(request: () => Promise<T>): Promise<T> {
    this.waiting.turnStarted();
    try {
      return await request();
    } finally {
      this.waiting.turnEnded();
    }
  }

  /** Stops the ticker and the SIGINT listener, lets go of stdout, and closes the agent. */
  async close(): Promise<void> {
    clearInterval(this.#ticker);
    process.off("SIGINT", this.cancel);
    this.#sink.dispose();
    await this.started?.close();
  }
}
