import type { ContentBlock } from "@agentclientprotocol/sdk";

const MAX_TITLE = 80;

/** A session title from its first prompt: the first line of its text, shortened. */
export function titleFrom(blocks: ContentBlock[]): string {
  for (const block of blocks) {
    const text = block.type === "text" ? block.text : block.type === "resource_link" ? block.name : "";
    const line = text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0);
    if (line) return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1)}…` : line;
  }
  return "Untitled session";
}
