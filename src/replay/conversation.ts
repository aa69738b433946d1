/**
 * The model's context, folded from facts. Display-only facts (thinking text, cards, notices,
 * plans, usage) never reach it, so a reopened session sends the provider the same request it
 * would have sent live. Pure.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { Fact, FactOf, ModelAttachment, RetractedRange, StoredFact } from "../journal/facts/index.ts";
import { isRetracted, rangesOf } from "./retraction.ts";
import type { ModelMessage, ModelToolResult, UserPart } from "./model-messages.ts";

/** How a compaction summary opens the next user message. */
export const SUMMARY_PREFIX =
  "This conversation continues from an earlier part that was summarised to fit the context window:\n<conversation-summary>\n";

const MOVED_OPENING = "This session was moved from ";

/** What the model is told after a compaction between two steps of a turn: the turn goes on. */
export const CONTINUE_NOTE =
  "The context was compacted while you were working on the user's request: go on with it from where the summary leaves off.";

/** What the model is given in place of a pruned tool result: what it was, and that it is gone. */
export function prunedStub(chars: number): string {
  return `[This tool result (${chars} characters) was pruned to keep the conversation within the context window. Run the call again if you need its output.]`;
}

/** What the model is told, with its next prompt, of a session moved to another directory. */
export function movedNote(fromCwd: string, cwd: string): string {
  return `${MOVED_OPENING}${fromCwd} to another machine or directory. The working directory is now ${cwd}: tools run there, and paths in the conversation above are as they were.`;
}

/**
 * Whether a part of a user message is one this fold opened it with (a compaction summary, a
 * move's note), not the user's own: each is a text part of its own, ahead of the prompt's parts.
 */
export function isOpeningNote(part: UserPart): boolean {
  return (
    part.type === "text" &&
    (part.text.startsWith(SUMMARY_PREFIX) || part.text.startsWith(MOVED_OPENING) || part.text === CONTINUE_NOTE)
  );
}

/** A user message's blocks as the model is given them, block by block: a withheld one (a deny rule covered it) as a line saying so. */
function givenParts(
  blocks: readonly ContentBlock[],
  withheld: readonly { index: number; rule: string }[] | undefined,
): UserPart[][] {
  const rules = new Map((withheld ?? []).map((w) => [w.index, w.rule]));
  return blocks.map((block, i) => {
    const rule = rules.get(i);
    return rule === undefined ? userParts(block) : [{ type: "text" as const, text: withheldText(block, rule) }];
  });
}

/** The model of a step whose end was never recorded: unknown, so no provider continuity applies. */
const INTERRUPTED_MODEL = { provider: "unknown", model: "unknown" };

export class ConversationFold {
  readonly messages: ModelMessage[] = [];
  readonly #stepText = new Map<string, string>();
  readonly #pairing = new Map<string, { providerCallId: string; name: string }>();
  /** Each turn's prompt, as the model is given it (hooks may add to it, or take it back). */
  readonly #prompts = new Map<string, Extract<ModelMessage, { role: "user" }>>();
  /** Each turn's prompt blocks as the model was given them, block by block (a linked file replaces its link). */
  readonly #promptBlocks = new Map<string, UserPart[][]>();
  /** Hook context for a call, given to the model with the call's result. */
  readonly #callContext = new Map<string, string[]>();
  /** Each call's result as the model is given it, in the order they came: what a pruning changes. */
  readonly #results = new Map<string, ModelToolResult>();
  /** A compaction summary not yet given to the model: it opens the next user message. */
  #summary: string | undefined;
  /** A move to another directory not yet told to the model: it opens the next prompt. */
  #moved: string | undefined;

  apply(fact: Fact): void {
    switch (fact.kind) {
      case "prompt_received":
        this.#prompt(fact);
        return;
      case "steering_received":
        // Given to the model where it landed: after the results of the step before it.
        this.messages.push({ role: "user", content: this.#opening(givenParts(fact.blocks, fact.withheld).flat()) });
        return;
      case "prompt_link_read":
        this.#linkRead(fact);
        return;
      case "hook_outcome":
        this.#hookOutcome(fact);
        return;
      case "instructions_loaded":
        // A file loaded on demand reaches the model with the result of the call that read there.
        if (this.#pairing.has(fact.toolCallId))
          this.#callContext.set(fact.toolCallId, [...(this.#callContext.get(fact.toolCallId) ?? []), fact.text]);
        return;
      case "command_invoked":
        this.#command(fact.turnId, fact.modelText);
        return;
      case "compaction_ended":
        if (fact.outcome !== "completed" || fact.summary === undefined) return;
        if (fact.midTurn) this.#compactMidTurn(fact.turnId, fact.summary);
        else this.#compact(fact.turnId, fact.summary);
        return;
      case "tool_results_pruned":
        this.#prune(fact.toolCallIds);
        return;
      case "message_chunk":
        if (fact.stream === "answer")
          this.#stepText.set(fact.stepId, (this.#stepText.get(fact.stepId) ?? "") + fact.text);
        return;
      case "step_ended":
        this.#stepEnded(fact);
        return;
      case "tool_call_finished":
      case "tool_call_refused":
        this.#result(fact.toolCallId, fact.result.text, fact.result.isError, fact.result.attachments);
        return;
      case "turn_ended":
        if (fact.retracted) this.#forget(fact.turnId);
        return;
      case "session_moved":
        this.#moved = movedNote(fact.fromCwd, fact.cwd);
        return;
      case "session_recovered":
        // A step the dead process was still streaming: the model is shown what the user saw.
        this.#unendedSteps();
        for (const call of fact.calls) this.#result(call.toolCallId, call.modelText, true);
        return;
      case "session_rewound":
        // The records it took back never reach this fold (conversationOf); a step it cut after its
        // text (its end, with the calls it made, taken back) is shown to the model as the user saw it.
        this.#unendedSteps();
        return;
      default:
        return;
    }
  }

  /** A prompt: its blocks as the model is given them, opened by a pending move's note and compaction summary. */
  #prompt(fact: FactOf<"prompt_received">): void {
    const moved = this.#moved;
    this.#moved = undefined;
    const byBlock = givenParts(fact.blocks, fact.withheld);
    this.#promptBlocks.set(fact.turnId, byBlock);
    const parts = byBlock.flat();
    const message: Extract<ModelMessage, { role: "user" }> = {
      role: "user",
      content: this.#opening(moved === undefined ? parts : [{ type: "text", text: moved }, ...parts]),
    };
    this.#prompts.set(fact.turnId, message);
    this.messages.push(message);
  }

  /** A step's end: its answer text and the calls it made, as one assistant message (none when it said and called nothing). */
  #stepEnded(fact: FactOf<"step_ended">): void {
    const text = this.#stepText.get(fact.stepId) ?? "";
    this.#stepText.delete(fact.stepId);
    const calls = fact.outcome === "completed" ? fact.calls : [];
    for (const c of calls) this.#pairing.set(c.toolCallId, { providerCallId: c.providerCallId, name: c.name });
    if (!text && calls.length === 0 && fact.continuity === undefined) return;
    this.messages.push({
      role: "assistant",
      text,
      calls: calls.map((c) => ({ providerCallId: c.providerCallId, name: c.name, input: c.input })),
      ...(fact.continuity !== undefined ? { continuity: fact.continuity } : {}),
      model: fact.model,
    });
  }

  /** Pruned results: each is given to the model as a stub saying what it was, and can be pruned no more. */
  #prune(toolCallIds: readonly string[]): void {
    for (const id of toolCallIds) {
      const result = this.#results.get(id);
      if (result) {
        result.text = prunedStub(result.text.length);
        // The stub stands for the whole result: an image or document read with it goes too.
        delete result.attachments;
      }
      this.#results.delete(id);
    }
  }

  /** A file a prompt linked to, read: the model is given its content in the link's place, as an embedded resource's. */
  #linkRead(fact: FactOf<"prompt_link_read">): void {
    const prompt = this.#prompts.get(fact.turnId);
    const linked = this.#promptBlocks.get(fact.turnId)?.[fact.block];
    if (!prompt || !linked || !fact.content) return;
    const at = prompt.content.indexOf(linked[0] as UserPart);
    if (at !== -1) prompt.content.splice(at, linked.length, ...userParts(fact.content));
  }

  /** Steps with no recorded end: each is given to the model as the text the user saw, with no provider data. */
  #unendedSteps(): void {
    for (const [stepId, text] of this.#stepText) {
      this.messages.push({ role: "assistant", text, calls: [], model: INTERRUPTED_MODEL });
      this.#stepText.delete(stepId);
    }
  }

  /**
   * What the model is given of a hook outcome: a blocked prompt is taken back; context goes with
   * the call it judged (next to its result), with the turn's prompt (SessionStart,
   * UserPromptSubmit, SubagentStart), or as the next instruction (a Stop or SubagentStop hook
   * that keeps the turn going).
   */
  #hookOutcome(fact: FactOf<"hook_outcome">): void {
    if (fact.status !== "settled") return;
    const prompt = fact.turnId !== undefined ? this.#prompts.get(fact.turnId) : undefined;
    if (fact.event === "UserPromptSubmit" && fact.decision === "block") {
      const at = prompt ? this.messages.indexOf(prompt) : -1;
      if (at !== -1) this.messages.splice(at, 1);
      return;
    }
    const context = fact.modelContext;
    if (!context) return;
    if (fact.toolCallId !== undefined) {
      if (this.#pairing.has(fact.toolCallId))
        this.#callContext.set(fact.toolCallId, [...(this.#callContext.get(fact.toolCallId) ?? []), context]);
      return;
    }
    if (fact.event === "Stop" || fact.event === "SubagentStop" || !prompt) {
      this.messages.push({ role: "user", content: [{ type: "text", text: context }] });
      return;
    }
    prompt.content.push({ type: "text", text: context });
  }

  /** A retracted turn (a refusal): its prompt and everything after it leave the model's context. */
  #forget(turnId: string): void {
    const prompt = this.#prompts.get(turnId);
    const at = prompt ? this.messages.indexOf(prompt) : -1;
    if (at !== -1) this.messages.splice(at);
    this.#prompts.delete(turnId);
  }

  /** A slash command's prompt: the model is given the command's text, or nothing for `/compact`. */
  #command(turnId: string, modelText: string | undefined): void {
    const prompt = this.#prompts.get(turnId);
    if (!prompt) return;
    if (modelText === undefined) {
      const at = this.messages.indexOf(prompt);
      if (at !== -1) this.messages.splice(at, 1);
      this.#prompts.delete(turnId);
      return;
    }
    // The command's text replaces the prompt's first text block; other blocks (images) stay.
    const first = prompt.content.findIndex((p) => p.type === "text");
    if (first >= 0) prompt.content.splice(first, 1, { type: "text", text: modelText });
    else prompt.content.unshift({ type: "text", text: modelText });
  }

  /**
   * The model's context restarts from a summary: every message before the turn that compacted
   * is dropped, and the summary opens the first user message that follows.
   */
  #compact(turnId: string, summary: string): void {
    const prompt = this.#prompts.get(turnId);
    const found = prompt ? this.messages.indexOf(prompt) : -1;
    const at = found === -1 ? this.messages.length : found;
    const kept = this.messages.splice(0, this.messages.length).slice(at);
    for (const [id, message] of this.#prompts) if (!kept.includes(message)) this.#prompts.delete(id);
    this.#stepText.clear();
    this.#summary = summary;
    for (const message of kept) {
      if (message.role === "user") message.content = this.#opening(message.content);
      this.messages.push(message);
    }
  }

  /**
   * A compaction between two steps of a turn: the model's context restarts from the summary
   * alone, with a note that the turn goes on; that message stands for the turn's prompt from
   * here on (hook context for the turn goes with it).
   */
  #compactMidTurn(turnId: string, summary: string): void {
    this.messages.splice(0, this.messages.length);
    this.#prompts.clear();
    this.#stepText.clear();
    this.#results.clear();
    this.#summary = summary;
    const message: Extract<ModelMessage, { role: "user" }> = {
      role: "user",
      content: this.#opening([{ type: "text", text: CONTINUE_NOTE }]),
    };
    this.#prompts.set(turnId, message);
    this.messages.push(message);
  }

  /**
   * The results the model is given whole, oldest first, with their sizes: what a pruning may
   * take (the ids its fact records). A compaction leaves none.
   */
  prunable(): { toolCallId: string; chars: number }[] {
    // A result a retraction or compaction took out of the context is not the model's any more.
    const present = new Set(this.messages.flatMap((m) => (m.role === "tool_results" ? m.results : [])));
    return [...this.#results]
      .filter(([, r]) => present.has(r))
      .map(([toolCallId, r]) => ({ toolCallId, chars: r.text.length }));
  }

  /** A user message's parts, opened by a pending compaction summary. */
  #opening(parts: UserPart[]): UserPart[] {
    const summary = this.#summary;
    if (summary === undefined) return parts;
    this.#summary = undefined;
    return [{ type: "text", text: `${SUMMARY_PREFIX}${summary}\n</conversation-summary>` }, ...parts];
  }

  #result(toolCallId: string, resultText: string, isError: boolean, attachments?: ModelAttachment[]): void {
    const pair = this.#pairing.get(toolCallId);
    if (!pair) return;
    this.#pairing.delete(toolCallId);
    const context = this.#callContext.get(toolCallId);
    this.#callContext.delete(toolCallId);
    const text = context ? [resultText, ...context].join("\n\n") : resultText;
    const result: ModelToolResult = {
      providerCallId: pair.providerCallId,
      name: pair.name,
      text,
      isError,
      ...(attachments?.length ? { attachments } : {}),
    };
    this.#results.set(toolCallId, result);
    const last = this.messages[this.messages.length - 1];
    if (last?.role === "tool_results") last.results.push(result);
    else this.messages.push({ role: "tool_results", results: [result] });
  }
}

/**
 * The model's context from a session's facts: all of them, in order from record 1 (fact `i` is
 * record `i + 1`), so the runs its last rewind took back are left out as conversationOf does.
 */
export function conversation(facts: Iterable<Fact>): ModelMessage[] {
  const all = [...facts];
  const last = all.findLastIndex((fact) => fact.kind === "session_rewound");
  const rewound = last === -1 ? [] : rangesOf(all[last] as FactOf<"session_rewound">, last + 1);
  return conversationOf(
    all.map((fact, i) => ({ fact, seq: i + 1, at: "" })),
    rewound,
  );
}

/**
 * The model's context from a session's records, leaving out the runs its rewinds took back
 * (`rewound`, as its last rewind says: replay/retraction.ts; the state fold keeps them).
 */
export function conversationOf(records: Iterable<StoredFact>, rewound: readonly RetractedRange[]): ModelMessage[] {
  const fold = new ConversationFold();
  for (const record of records) if (!isRetracted(rewound, record.seq)) fold.apply(record.fact);
  return fold.messages;
}

/** What the model is told of an embedded file a deny rule kept from it. */
function withheldText(block: ContentBlock, rule: string): string {
  const uri = block.type === "resource" ? block.resource.uri : "";
  return `[Attached file withheld: ${uri} is covered by the user's permission rule ${rule}]`;
}

/** How a prompt block reads to the model. Images pass through; resources become text. */
export function userParts(block: ContentBlock): UserPart[] {
  switch (block.type) {
    case "text":
      return [{ type: "text", text: block.text }];
    case "image":
      return [{ type: "image", data: block.data, mimeType: block.mimeType }];
    case "resource_link":
      return [{ type: "text", text: `[Attached: ${block.title ?? block.name}](${block.uri})` }];
    case "resource": {
      const r = block.resource;
      if ("text" in r) return [{ type: "text", text: `<resource uri="${r.uri}">\n${r.text}\n</resource>` }];
      return [{ type: "text", text: `[Attached binary resource: ${r.uri}]` }];
    }
    case "audio":
      return [{ type: "text", text: "[Audio attachment omitted]" }];
  }
}
