/** Checks a prompt's content blocks against what verbatim advertised, before anything is recorded. */
import type { ContentBlock } from "@agentclientprotocol/sdk/unstable";
import { EngineError } from "../core/errors.ts";
import { agentCapabilities } from "./capabilities.ts";

const gates: Record<string, keyof NonNullable<typeof agentCapabilities.promptCapabilities> | "baseline"> = {
  text: "baseline",
  resource_link: "baseline",
  image: "image",
  audio: "audio",
  resource: "embeddedContext",
};

export function checkPromptBlocks(blocks: ContentBlock[]): void {
  if (blocks.length === 0) throw new EngineError("unsupported_content", "the prompt is empty");
  const prompt = agentCapabilities.promptCapabilities ?? {};
  for (const [index, block] of blocks.entries()) {
    const gate = gates[block.type];
    if (gate === "baseline") continue;
    if (gate && prompt[gate]) continue;
    throw new EngineError(
      "unsupported_content",
      `prompt block ${index} has type "${block.type}", which verbatim does not accept; send text, image, resource_link or resource blocks`,
      { index, type: block.type },
    );
  }
}
