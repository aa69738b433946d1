/**
 * Replay leaves out what clients took out of their view live: the entries of a retracted turn
 * (a refusal, whose prompt and everything after it ACP says the UI should drop). Live, verbatim
 * cannot know a turn will be refused, so it shows it as it streams and the client removes it when
 * the prompt ends `refusal`; a reload must not bring it back. The decision is the recorded
 * `turn_ended.retracted`, so a replay holds each turn's updates until the turn's end, then sends
 * them, or only those that are session state (usage, title, plan, mode, config, commands). Pure.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { Fact } from "../journal/facts/index.ts";

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

export class RetractedTurns {
  /** The updates of the turn under way, until it ends; undefined between turns. */
  #held: SessionUpdate[] | undefined;

  /** Takes the updates one record shows; returns those to send now, in order. */
  push(fact: Fact, updates: readonly SessionUpdate[]): readonly SessionUpdate[] {
    if (fact.kind === "prompt_received") {
      // A turn that never ended (its process died) is shown as it was.
      const unended = this.flush();
      this.#held = [...updates];
      return unended;
    }
    if (!this.#held) return updates;
    this.#held.push(...updates);
    if (fact.kind !== "turn_ended") return NOTHING;
    const turn = this.#held;
    this.#held = undefined;
    return fact.retracted ? turn.filter((u) => !ENTRIES.has(u.sessionUpdate)) : turn;
  }

  /** What is still held (a turn with no recorded end), to send at the end of the replay. */
  flush(): readonly SessionUpdate[] {
    const held = this.#held ?? NOTHING;
    this.#held = undefined;
    return held;
  }
}
