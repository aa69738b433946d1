/**
 * Replay leaves out what clients took out of their view live: the entries of a retracted turn
 * (a refusal, whose prompt and everything after it ACP says the UI should drop). Live, verbatim
 * cannot know a turn will be refused, so it shows it as it streams and the client removes it when
 * the prompt ends `refusal`; a reload must not bring it back. The decision is the recorded
 * `turn_ended.retracted`, so a replay holds each turn's updates until the turn's end, then sends
 * them, or only those that are session state (usage, title, plan, mode, config, commands). Pure.
 *
 * A rewind takes back runs of records the same way (replay/retraction.ts): the client dropped
 * their entries when its rewind was answered, so a replay, which knows the session's last rewind
 * before it starts, sends of each such record only what is session state, and never marks one of
 * their calls interrupted.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { Fact, RetractedRange } from "../journal/facts/index.ts";
import { isRetracted } from "./retraction.ts";
import { isTurnEnd } from "./turn-end.ts";

/** What a client shows as entries of the conversation: what it removes for a refusal. */
const ENTRIES = new Set<SessionUpdate["sessionUpdate"]>([
  "user_message_chunk",
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "tool_call_update",
  "compaction_update",
  "compaction_summary_chunk",
]);

const NOTHING: readonly SessionUpdate[] = Object.freeze([]);

const sessionState = (u: SessionUpdate): boolean => !ENTRIES.has(u.sessionUpdate) && !isTurnEnd(u);

export class RetractedTurns {
  /** The updates of the turn under way, until it ends; undefined between turns. */
  #held: SessionUpdate[] | undefined;
  /** The turn under way (its prompt shown, its end not recorded yet), unless a rewind took its prompt back. */
  #openTurn: string | undefined;
  /** Calls announced in records a rewind took back. */
  readonly #rewoundCalls = new Set<string>();

  /** `rewound`: the runs of records the session's rewinds took back, in order. */
  constructor(private readonly rewound: readonly RetractedRange[] = []) {}

  /** Takes the updates one record shows (`seq`: its place); returns those to send now, in order. */
  push(fact: Fact, shown: readonly SessionUpdate[], seq = 0): readonly SessionUpdate[] {
    let updates = shown;
    if (this.rewound.length > 0 && isRetracted(this.rewound, seq)) {
      if (fact.kind === "tool_call_announced") this.#rewoundCalls.add(fact.toolCallId);
      updates = shown.filter(sessionState);
    }
    if (fact.kind === "prompt_received") {
      // A turn that never ended (its process died) is shown as it was.
      const unended = this.flush();
      this.#held = [...updates];
      this.#openTurn = this.rewound.length > 0 && isRetracted(this.rewound, seq) ? undefined : fact.turnId;
      return unended;
    }
    if (fact.kind === "turn_ended" || fact.kind === "session_recovered") this.#openTurn = undefined;
    if (!this.#held) return updates;
    this.#held.push(...updates);
    if (fact.kind !== "turn_ended") return NOTHING;
    const turn = this.#held;
    this.#held = undefined;
    return fact.retracted ? turn.filter(sessionState) : turn;
  }

  /** The turn the records so far leave open (no end recorded, nor a recovery after it), if one is shown. */
  get openTurn(): string | undefined {
    return this.#openTurn;
  }

  /** Whether an interruption mark is for a call the client still shows (not one a rewind took back). */
  shows(mark: SessionUpdate): boolean {
    return !("toolCallId" in mark && this.#rewoundCalls.has(mark.toolCallId));
  }

  /** What is still held (a turn with no recorded end), to send at the end of the replay. */
  flush(): readonly SessionUpdate[] {
    const held = this.#held ?? NOTHING;
    this.#held = undefined;
    return held;
  }
}
