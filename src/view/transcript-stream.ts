/**
 * The one transcript renderer, for a session drawn live and drawn again: updates are folded into
 * a client's view (TranscriptRecorder) and each part of the timeline is drawn once, in timeline
 * order, as soon as it can no longer change. `verbatim show` feeds it a replay and flushes; `run`
 * and `chat` feed it what streams and flush when the turn ends. So what a terminal was shown live
 * is, piece for piece, what `show` draws of the same updates.
 *
 * When a part is final: a message once anything follows it (its text streams while it is the
 * last part); a tool card or a compaction once a message or compaction follows it (a card keeps
 * changing while its call runs, asks, and gets its hooks' outcomes, and a model step's calls all
 * settle before the next step speaks); everything when the stream is flushed. Plans, mode and
 * model changes and how a turn ended (when it did not simply end) are drawn where they arrived,
 * between the parts they came between.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import {
  cardPieces,
  closingPieces,
  compactionPieces,
  drawnText,
  linePrefix,
  MESSAGE_END,
  markPieces,
  messageStart,
  messageStyle,
  modelOf,
  rawBlockText,
  type Mark,
  type Piece,
} from "./transcript-lines.ts";
import { turnEndIn, type TurnEndMark } from "./turn-end-mark.ts";
import { emptyView, reduce, type MessageView, type ViewModel } from "./view-model.ts";

export type { Mark, Piece } from "./transcript-lines.ts";

/**
 * Folds updates into a client's view and also remembers where in the timeline each plan, mode
 * change and model change arrived, which the view model (the latest value only) does not keep.
 * A session's first fact shows no config, so the model before the first change is unknown: the
 * first config update marks its model unless it came with a mode change (which is marked as one).
 */
export class TranscriptRecorder {
  readonly view: ViewModel = emptyView();
  readonly marks: Mark[] = [];
  #model: string | undefined;
  #afterModeChange = false;

  apply(update: SessionUpdate): void {
    const at = this.view.timeline.length;
    if (update.sessionUpdate === "plan") this.marks.push({ at, kind: "plan", entries: update.entries });
    const ended = turnEndIn(update);
    if (ended) this.marks.push({ at, kind: "turn-end", ...withoutSaidError(this.view, ended) });
    if (update.sessionUpdate === "current_mode_update")
      this.marks.push({ at, kind: "mode", modeId: update.currentModeId });
    if (update.sessionUpdate === "config_option_update") {
      const model = modelOf(update.configOptions);
      const changed = this.#model === undefined ? !this.#afterModeChange : model !== this.#model;
      if (model !== undefined && changed) this.marks.push({ at, kind: "model", model });
      if (model !== undefined) this.#model = model;
    }
    this.#afterModeChange = update.sessionUpdate === "current_mode_update";
    reduce(this.view, update);
  }
}

/** A failure's reason, unless the notice just before said it already (a failed turn's notice holds its error). */
function withoutSaidError(view: ViewModel, ended: TurnEndMark): TurnEndMark {
  const last = view.timeline.at(-1);
  const message = last?.startsWith("message:") ? view.messages[last.slice("message:".length)] : undefined;
  const said = message?.meta && message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  return said === ended.error ? { ending: ended.ending } : ended;
}

const isMessageLike = (key: string) => key.startsWith("message:") || key.startsWith("compaction:");

export class TranscriptStream {
  /** Timeline parts drawn whole. */
  #drawn = 0;
  /** Marks drawn (they arrive in timeline order). */
  #marksDrawn = 0;
  /** How much of the last part, a message still streaming, has been drawn: blocks, and text of the next one. */
  #cursor = { started: false, block: 0, offset: 0 };

  /**
   * @param write receives each piece once, in order.
   * @param recorder the fold drawn (its marks are drawn where they arrived; without marks, as
   *   `renderTranscript` of a bare view does, the latest plan closes the transcript).
   */
  constructor(
    private readonly write: (piece: Piece) => void,
    readonly recorder: { view: ViewModel; marks?: Mark[] } = new TranscriptRecorder(),
  ) {}

  get view(): ViewModel {
    return this.recorder.view;
  }

  /** Folds one update (when the recorder is a TranscriptRecorder) and draws what became final. */
  apply(update: SessionUpdate): void {
    if (this.recorder instanceof TranscriptRecorder) this.recorder.apply(update);
    this.#advance(false);
  }

  /** Draws everything not drawn yet: the turn, or the replay, has ended. */
  flush(): void {
    this.#advance(true);
  }

  /** The closing line (mode, context), drawn once at the end of what was shown. */
  close(): void {
    this.flush();
    if (!this.recorder.marks && this.view.plan)
      for (const piece of markPieces({ at: 0, kind: "plan", entries: this.view.plan })) this.write(piece);
    for (const piece of closingPieces(this.view)) this.write(piece);
  }

  #advance(all: boolean): void {
    const timeline = this.view.timeline;
    const final = all ? timeline.length : finalCount(timeline);
    for (;;) {
      this.#drawMarks(this.#drawn);
      if (this.#drawn >= final) break;
      this.#drawPart(timeline[this.#drawn] as string);
      this.#drawn++;
    }
    const last = timeline[this.#drawn];
    if (!all && last?.startsWith("message:") && this.#drawn === timeline.length - 1) {
      const message = this.view.messages[last.slice("message:".length)];
      if (message) this.#stream(message, false);
    }
  }

  #drawMarks(upTo: number): void {
    const marks = this.recorder.marks ?? [];
    while (this.#marksDrawn < marks.length && (marks[this.#marksDrawn] as Mark).at <= upTo) {
      for (const piece of markPieces(marks[this.#marksDrawn] as Mark)) this.write(piece);
      this.#marksDrawn++;
    }
  }

  #drawPart(key: string): void {
    const colon = key.indexOf(":");
    const kind = key.slice(0, colon);
    const id = key.slice(colon + 1);
    if (kind === "message") {
      const message = this.view.messages[id];
      if (message) this.#stream(message, true);
    } else if (kind === "compaction") {
      const compaction = this.view.compactions[id];
      if (compaction) for (const piece of compactionPieces(compaction)) this.write(piece);
    } else {
      const card = this.view.toolCalls[id];
      if (card) for (const piece of cardPieces(card)) this.write(piece);
    }
    this.#cursor = { started: false, block: 0, offset: 0 };
  }

  /**
   * Draws what is new of a message since the last call (text only grows: chunks append to its
   * last text block, or add blocks); a settled one also gets its end. While it streams, a carriage
   * return that ends what arrived so far is held back: the next chunk may bring its line feed.
   * Each block is drawn through `visible` as a whole block would be.
   */
  #stream(message: MessageView, settled: boolean): void {
    const cursor = this.#cursor;
    const prefix = linePrefix(message);
    let text = "";
    if (!cursor.started) {
      text += messageStart(message);
      cursor.started = true;
    }
    const blocks = message.content;
    while (cursor.block < blocks.length) {
      const block = blocks[cursor.block] as (typeof blocks)[number];
      const last = cursor.block === blocks.length - 1;
      if (block.type === "text") {
        const end = last && !settled && block.text.endsWith("\r") ? block.text.length - 1 : block.text.length;
        if (end > cursor.offset) text += drawnText(block.text.slice(cursor.offset, end), prefix);
        cursor.offset = Math.max(cursor.offset, end);
      } else if (cursor.offset === 0) {
        text += drawnText(rawBlockText(block), prefix);
        cursor.offset = 1;
      }
      if (last) break;
      cursor.block++;
      cursor.offset = 0;
    }
    const style = messageStyle(message);
    if (text) this.write({ style, text });
    if (settled) this.write({ style, text: MESSAGE_END, end: true });
  }
}

/** How many leading parts of the timeline can no longer change (see the module's comment). */
function finalCount(timeline: string[]): number {
  let lastMessage = -1;
  for (let i = timeline.length - 1; i >= 0; i--) {
    if (isMessageLike(timeline[i] as string)) {
      lastMessage = i;
      break;
    }
  }
  if (lastMessage < 0) return 0;
  return lastMessage < timeline.length - 1 ? lastMessage + 1 : lastMessage;
}
