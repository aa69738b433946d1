/** A readable transcript of a view model: what a client shows, as plain text. */
import type { ContentBlock, ToolCallContent } from "@agentclientprotocol/sdk";
import type { ViewModel } from "./view-model.ts";

const indent = (text: string, prefix: string) => text.split("\n").map((l) => prefix + l).join("\n");

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource_link":
      return `[${block.name}](${block.uri})`;
    case "resource":
      return `[resource ${block.resource.uri}]`;
    case "image":
      return `[image ${block.mimeType}]`;
    case "audio":
      return `[audio ${block.mimeType}]`;
  }
}

function toolContentText(content: ToolCallContent): string {
  switch (content.type) {
    case "content":
      return blockText(content.content);
    case "diff":
      return `diff ${content.path}\n--- old\n${content.oldText ?? "(new file)"}\n+++ new\n${content.newText}`;
    case "terminal":
      return `[terminal ${content.terminalId}]`;
  }
}

export function renderTranscript(view: ViewModel): string {
  const out: string[] = [];
  if (view.title) out.push(`# ${view.title}`, "");
  for (const key of view.timeline) {
    const [kind, ...rest] = key.split(":");
    const id = rest.join(":");
    if (kind === "message") {
      const m = view.messages[id];
      if (!m) continue;
      const text = m.content.map(blockText).join("");
      if (m.role === "user") out.push(indent(text, "> "), "");
      else if (m.role === "thought") out.push(indent(text, "  ~ "), "");
      else out.push(m.meta ? `! ${text}` : text, "");
    } else if (kind === "compaction") {
      const c = view.compactions[id];
      if (!c) continue;
      out.push(`[compaction] ${c.status}${c.error ? `: ${c.error}` : ""}`, indent(c.summary.map(blockText).join(""), "    "), "");
    } else {
      const c = view.toolCalls[id];
      if (!c) continue;
      const where = c.locations?.length ? ` @ ${c.locations.map((l) => `${l.path}${l.line ? `:${l.line}` : ""}`).join(", ")}` : "";
      out.push(`[${c.kind}] ${c.title} — ${c.status}${where}`);
      for (const item of c.content ?? []) out.push(indent(toolContentText(item), "    "));
      out.push("");
    }
  }
  if (view.plan) {
    out.push("Plan:");
    for (const e of view.plan) out.push(`  [${e.status === "completed" ? "x" : e.status === "in_progress" ? "~" : " "}] ${e.content}`);
    out.push("");
  }
  const facts = [
    view.modeId ? `mode ${view.modeId}` : "",
    view.usage ? `context ${view.usage.used}/${view.usage.size} tokens` : "",
  ].filter(Boolean);
  if (facts.length) out.push(`(${facts.join(", ")})`);
  return out.join("\n");
}
