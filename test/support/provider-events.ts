/** Driving one adapter directly: its provider from a catalog pointed at a fixture server, and its events summarized. */
import { expect } from "bun:test";
import { catalogFromEnv } from "../../src/core/providers/catalog.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "../../src/core/providers/types.ts";
import type { ModelMessage } from "../../src/replay/model-messages.ts";
import type { FixtureServer } from "./fixture-server.ts";
import { modelRef, type Kit } from "./provider-kits.ts";
import { sandbox } from "./workspace.ts";

/** The kit's adapter, exactly as verbatim builds it from its environment. */
export function providerFor(kit: Kit, server: FixtureServer, extraEnv: Record<string, string> = {}): Provider {
  const box = sandbox(modelRef(kit));
  const catalog = catalogFromEnv({ ...box.env, ...kit.env(server), ...extraEnv }, box.workspace);
  const provider = catalog.provider({ provider: kit.kind, model: kit.model });
  expect(provider).toBeDefined();
  return provider!;
}

export const readTool = {
  name: "Read",
  description: "Reads a file",
  inputSchema: { type: "object" as const, properties: { file_path: { type: "string" } }, required: ["file_path"] },
};

export const userSays = (text: string): ModelMessage => ({ role: "user", content: [{ type: "text", text }] });

export function providerRequest(kit: Kit, overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    model: kit.model,
    system: "You are a test.",
    messages: [userSays("Hello")],
    tools: [readTool],
    thoughtLevel: "medium",
    cwd: "/tmp",
    ...overrides,
  };
}

export async function collect(
  provider: Provider,
  request: ProviderRequest,
  signal = new AbortController().signal,
): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(request, signal)) events.push(event);
  return events;
}

export type Summary = {
  thinking: string;
  text: string;
  calls: { index: number; id: string; name: string; input: unknown; ended: boolean }[];
  notices: string[];
  usage: Extract<ProviderEvent, { type: "usage" }> | undefined;
  final: Extract<ProviderEvent, { type: "done" | "error" }>;
  finals: number;
};

export function summarize(events: ProviderEvent[]): Summary {
  const calls = new Map<number, { index: number; id: string; name: string; json: string; ended: boolean }>();
  let thinking = "";
  let text = "";
  const notices: string[] = [];
  let usage: Summary["usage"];
  const finals = events.filter((e) => e.type === "done" || e.type === "error");
  for (const e of events) {
    if (e.type === "thinking_delta") thinking += e.text;
    else if (e.type === "text_delta") text += e.text;
    else if (e.type === "tool_call_start")
      calls.set(e.index, { index: e.index, id: e.providerCallId, name: e.name, json: "", ended: false });
    else if (e.type === "tool_call_delta") calls.get(e.index)!.json += e.json;
    else if (e.type === "tool_call_end") calls.get(e.index)!.ended = true;
    else if (e.type === "notice") notices.push(e.title);
    else if (e.type === "usage") usage = e;
  }
  const final = events[events.length - 1];
  if (!final || (final.type !== "done" && final.type !== "error"))
    throw new Error("the stream did not end with a final event");
  return {
    thinking,
    text,
    calls: [...calls.values()].map((c) => ({
      index: c.index,
      id: c.id,
      name: c.name,
      input: c.json ? JSON.parse(c.json) : {},
      ended: c.ended,
    })),
    notices,
    usage,
    final,
    finals: finals.length,
  };
}
