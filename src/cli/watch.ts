/**
 * `verbatim watch ID`: a session drawn in the terminal as it is written, by whichever process
 * runs it (on this machine, or on another sharing the PostgreSQL journal), until Ctrl-C. What is
 * recorded is drawn first, as `show` draws it; then each record as the writer commits it, through
 * the projection the writer's own client was sent it by, as an attached editor is sent it (the one
 * follower: core/follow/session-follower.ts), and the one transcript renderer; on stderr, what
 * `run` shows beside it (progress lines, a command's output as it comes, the wait for the model at
 * a terminal), a background job's output as it is recorded (headed by the job's id, since its card
 * may be drawn already) and a line at each turn's end saying how it ended (the writer's death
 * included: the calls it left open are drawn interrupted). It reads the journal
 * only: the writer is never asked for anything, nor slowed.
 */
import { followLive, type Following, type RecordWatcher, sendHistory } from "../core/follow/session-follower.ts";
import { drawingSink, type ReplaySink } from "../core/session/replay-sink.ts";
import type { JournalStore } from "../journal/store.ts";
import { Projector } from "../replay/project.ts";
import type { Fact } from "../journal/facts/index.ts";
import { endedLine, outputText } from "../replay/job-card.ts";
import { visible } from "../view/visible-text.ts";
import { onSession } from "./sessions.ts";
import type { FactOf } from "../journal/facts/index.ts";
import { oneLine, ProgressLines } from "./terminal/progress-lines.ts";
import { processScreenOptions, Screen } from "./terminal/screen.ts";
import { WaitIndicator } from "./terminal/wait-indicator.ts";

const write = (stream: NodeJS.WriteStream) => (text: string) => {
  stream.write(text);
};

/** Follows `sessionId` until SIGINT (exit 130) or until the session is deleted (exit 1). */
export function watchSession(sessionId: string): Promise<number> {
  return onSession(sessionId, async ({ store }) => {
    const screen = new Screen(write(process.stdout), write(process.stderr), processScreenOptions(true));
    const stop = new AbortController();
    const interrupt = () => stop.abort();
    process.on("SIGINT", interrupt);
    try {
      // What is recorded, as a reopened client is sent it; the projector then goes live. Not
      // flushed: a message the writer is still streaming stays open, to be drawn on as it grows.
      const projector = new Projector({ notices: false, replay: true, sessionId });
      const history = drawingSink((update) => screen.transcript.apply(update));
      const following = await sendHistory(store, sessionId, projector, { policy: "full" }, history);
      screen.progress(
        `verbatim: watching ${sessionId}: each update is drawn as its writer records it (Ctrl-C to stop)\n`,
      );
      await drawFollowing(store, sessionId, following, screen, stop.signal);
      screen.transcript.close();
      return 130;
    } finally {
      process.off("SIGINT", interrupt);
    }
  });
}

/**
 * Draws each record as it is committed (core/follow/session-follower.ts), with what `run` and
 * `chat` show beside the transcript on stderr: the progress lines (a command's output as it
 * comes), the status line while the model is waited for, and a line when a turn ends saying how,
 * its writer's death included (the calls it left open are drawn interrupted, as an attached
 * editor is shown them).
 */
async function drawFollowing(
  store: JournalStore,
  sessionId: string,
  following: Following,
  screen: Screen,
  signal: AbortSignal,
): Promise<void> {
  const progress = new ProgressLines((text) => screen.progress(text));
  const waiting = new WaitIndicator((text) => screen.status(text));
  if (following.state.runningTurn()) waiting.turnStarted();
  const ticker = setInterval(() => {
    progress.tick();
    waiting.tick();
  }, 1000);
  const turnEnded = (words: string) => {
    // A turn's end is when run and chat draw the rest of it.
    screen.transcript.flush();
    waiting.turnEnded();
    screen.progress(`verbatim: the turn ended: ${words}\n`);
  };
  const sink: ReplaySink = drawingSink((update) => {
    waiting.saw(update);
    screen.transcript.apply(update);
    progress.print(update);
  });
  const drawn: RecordWatcher = {
    record: ({ fact }) => {
      if (fact.kind === "prompt_received") waiting.turnStarted();
      // A background job's output grows a card the transcript may have drawn already: it is drawn as it arrives.
      const job = jobLines(fact);
      if (job) screen.progress(job);
      if (fact.kind === "turn_ended") turnEnded(turnEndWords(fact));
    },
    ended: (reason) => {
      if (!signal.aborted) turnEnded(`interrupted: ${reason}`);
    },
  };
  following.watchers.add(drawn);
  try {
    await followLive(store, sessionId, following, sink, signal);
  } finally {
    clearInterval(ticker);
    waiting.turnEnded();
  }
}

/** How a turn ended, in words. */
export function turnEndWords(fact: FactOf<"turn_ended">): string {
  if (fact.outcome === "failed") return `failed: ${oneLine(fact.error ?? "no reason was recorded")}`;
  switch (fact.stopReason) {
    case "cancelled":
      return "cancelled";
    case "max_tokens":
      return "stopped: the answer reached the model's output limit";
    case "max_turn_requests":
      return "stopped: it reached its limit of model requests";
    case "refusal":
      return "the model refused (the turn is taken back)";
    default:
      return "done";
  }
}

/** A job's output, each line headed by the job's id, or how the job ended; undefined for any other fact. */
function jobLines(fact: Fact): string | undefined {
  if (fact.kind === "job_ended") return `[${fact.jobId}] ${endedLine(fact)}\n`;
  if (fact.kind !== "job_output") return undefined;
  const lines = outputText(fact).split("\n");
  if (lines.at(-1) === "") lines.pop();
  // The output came from a command: escapes shown, never run.
  return lines.map((line) => `[${fact.jobId}] ${visible(line)}\n`).join("") || undefined;
}
