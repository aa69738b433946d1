/**
 * The scripted provider: plays a deterministic scenario through the normalized event stream,
 * with no network. Chosen only explicitly (`VERBATIM_MODEL=scripted/<scenario>`) or by the demo.
 */
import type { ModelMessage, ModelToolResult, UserPart } from "../../../replay/model-messages.ts";
import { isOpeningNote, SUMMARY_PREFIX } from "../../../replay/conversation.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "../types.ts";
import { scenarios, scriptedStep } from "./scenarios.ts";
import { say } from "./script.ts";
import { sleep } from "../../../shared/sleep.ts";

const CONTEXT_WINDOW = 200_000;

export const scriptedProvider: Provider = {
  id: "scripted",
  contextWindow: (model) => scenarios[model]?.contextWindow ?? CONTEXT_WINDOW,
  stream,
};

const scenarioNames = () => Object.keys(scenarios);

async function* stream(request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
  const scenario = scenarios[request.model];
  if (!scenario) {
    yield {
      type: "error",
      message: `unknown scripted scenario "${request.model}"; known: ${scenarioNames().join(", ")}`,
      retryable: false,
    };
    return;
  }
  if (request.purpose === "compaction") {
    yield* summarise(request);
    return;
  }
  const { promptIndex, stepIndex, results, prompt, summarised, images } = position(request.messages);
  const callsSoFar = countCalls(request.messages);
  const tools = request.tools.map((t) => t.name);
  const ctx = {
    cwd: request.cwd,
    thoughtLevel: request.thoughtLevel,
    promptIndex,
    stepIndex,
    results,
    prompt,
    summarised,
    images,
    tools,
    callsSoFar,
  };
  const events = scriptedStep(scenario, ctx)(ctx);
  let output = 0;
  for (const event of events) {
    if (signal.aborted) {
      yield { type: "error", message: "cancelled", retryable: false };
      return;
    }
    if (event.type === "pause") {
      await sleep(event.ms, signal);
      continue;
    }
    if (event.type === "thinking_delta" && request.thoughtLevel === "off") continue;
    if (event.type === "text_delta" || event.type === "thinking_delta") output += event.text.length;
    if (event.type === "done") {
      yield { type: "usage", inputTokens: Math.ceil(requestChars(request) / 4), outputTokens: Math.ceil(output / 4) };
    }
    yield event;
    if (event.type === "done" || event.type === "error") return;
  }
}

/** How a scripted summary counts the tool calls it stands for. */
const CALLS_SUMMARISED = /(\d+) tool calls? made so far\./;

/** The tool calls `messages` made: their assistant messages' and what a scripted summary opening them counted. */
function countCalls(messages: ModelMessage[]): number {
  let calls = 0;
  for (const m of messages) {
    if (m.role === "assistant") calls += m.calls.length;
    else if (m.role === "user")
      for (const p of m.content.slice(0, leadingNotes(m.content)))
        if (p.type === "text" && p.text.startsWith(SUMMARY_PREFIX))
          calls += Number(CALLS_SUMMARISED.exec(p.text)?.[1] ?? 0);
  }
  return calls;
}

/**
 * A compaction summary, deterministic: the prompts of the conversation, in order (the user's own
 * text, not the notes opening it), and how many tool calls it made when there were any.
 */
function* summarise(request: ProviderRequest): Generator<ProviderEvent> {
  const history = request.messages.slice(0, -1);
  const prompts = history.flatMap((m) => {
    if (m.role !== "user") return [];
    const text = m.content
      .slice(leadingNotes(m.content))
      .map((p) => (p.type === "text" ? p.text : ""))
      .join("")
      .replace(/\s+/g, " ")
      .trim();
    return text ? [text] : [];
  });
  const calls = countCalls(history);
  const shown = prompts.map((p) => `"${p.length > 60 ? `${p.slice(0, 59)}…` : p}"`).join("; ");
  const focus = request.messages.at(-1);
  const asked = focus?.role === "user" ? focus.content.map((p) => (p.type === "text" ? p.text : "")).join("") : "";
  const keep = /Keep in particular: (.*)$/.exec(asked)?.[1];
  const made = calls > 0 ? ` ${calls} tool call${calls === 1 ? "" : "s"} made so far.` : "";
  const text = `Summary: the user sent ${prompts.length} prompt${prompts.length === 1 ? "" : "s"}: ${shown}.${keep ? ` Kept in particular: ${keep}.` : ""}${made}`;
  for (const event of say(text)) if (event.type !== "pause") yield event;
  yield { type: "usage", inputTokens: Math.ceil(requestChars(request) / 4), outputTokens: Math.ceil(text.length / 4) };
  yield { type: "done", stopReason: "end_turn" };
}

/**
 * Which prompt and step a request is at, read from its messages alone. The prompt is the user's
 * own text: the notes a user message opens with (a compaction summary, a move's note) are not
 * part of it, as the real wires keep them apart; `summarised` says a summary opened it.
 */
function position(messages: ModelMessage[]): {
  promptIndex: number;
  stepIndex: number;
  results: ModelToolResult[];
  prompt: string;
  summarised: boolean;
  images: { mimeType: string; bytes: number }[];
} {
  let prompts = 0;
  let prompt = "";
  let summarised = false;
  let images: { mimeType: string; bytes: number }[] = [];
  let steps = 0;
  let results: ModelToolResult[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      prompts++;
      const notes = leadingNotes(m.content);
      summarised = m.content.slice(0, notes).some((p) => p.type === "text" && p.text.startsWith(SUMMARY_PREFIX));
      prompt = m.content
        .slice(notes)
        .map((p) => (p.type === "text" ? p.text : ""))
        .join("");
      images = m.content.flatMap((p) =>
        p.type === "image" ? [{ mimeType: p.mimeType, bytes: Buffer.from(p.data, "base64").length }] : [],
      );
      steps = 0;
      results = [];
    } else if (m.role === "assistant") {
      steps++;
      results = [];
    } else if (m.role === "tool_results") {
      results = m.results;
    }
  }
  return { promptIndex: Math.max(0, prompts - 1), stepIndex: steps, results, prompt, summarised, images };
}

/** How many of a user message's first parts are notes the conversation opened it with. */
function leadingNotes(content: UserPart[]): number {
  let notes = 0;
  while (notes < content.length && isOpeningNote(content[notes]!)) notes++;
  return notes;
}

function requestChars(request: ProviderRequest): number {
  let n = request.system.length;
  for (const m of request.messages) {
    if (m.role === "user") for (const p of m.content) n += p.type === "text" ? p.text.length : 1000;
    else if (m.role === "assistant") n += m.text.length + JSON.stringify(m.calls).length;
    else for (const r of m.results) n += r.text.length;
  }
  return n;
}
