/**
 * The one check a prompt's content gets before anything of it is recorded, wherever it comes
 * from: a client's `session/prompt` (after the SDK's own parse), an edited prompt, and a
 * controller's prompt taken from the session's inbox (a row any machine with the journal's writer
 * role could have written: journal/session-inbox.ts). Each block must be one of ACP's content
 * blocks with its required fields of their types (the schema below, ACP's `ContentBlock`), and of a
 * type verbatim advertised (prompt-capabilities.ts).
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { EngineError } from "../errors.ts";
import { promptCapabilities } from "./prompt-capabilities.ts";

/** What every block may carry besides its own fields, typed as ACP types them. */
const common = {
  annotations: z.looseObject({}).nullish(),
  _meta: z.record(z.string(), z.unknown()).nullish(),
};
const optionalText = z.string().nullish();

const resourceContents = z.union([
  z.looseObject({ uri: z.string(), text: z.string(), mimeType: optionalText }),
  z.looseObject({ uri: z.string(), blob: z.string(), mimeType: optionalText }),
]);

/** ACP's content blocks, strict on every field verbatim reads; other fields are kept as sent. */
const promptBlock = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text: z.string(), ...common }),
  z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string(), uri: optionalText, ...common }),
  z.looseObject({ type: z.literal("audio"), data: z.string(), mimeType: z.string(), ...common }),
  z.looseObject({
    type: z.literal("resource_link"),
    uri: z.string(),
    name: z.string(),
    title: optionalText,
    description: optionalText,
    mimeType: optionalText,
    size: z.number().nullish(),
    ...common,
  }),
  z.looseObject({ type: z.literal("resource"), resource: resourceContents, ...common }),
]);

type Gate = keyof typeof promptCapabilities | "baseline";
const gates: Record<string, Gate> = {
  text: "baseline",
  resource_link: "baseline",
  image: "image",
  audio: "audio",
  resource: "embeddedContext",
};

const refused = (message: string, details: Record<string, unknown> = {}) =>
  new EngineError("unsupported_content", message, details);

/**
 * `blocks` as a prompt's content, unchanged, once each block is a well-formed content block of a
 * type verbatim accepts; otherwise throws EngineError `unsupported_content` naming the first block
 * that is not (and why). An empty prompt is refused.
 */
export function checkPromptBlocks(blocks: unknown): ContentBlock[] {
  if (!Array.isArray(blocks)) throw refused("the prompt is not a list of content blocks");
  if (blocks.length === 0) throw refused("the prompt is empty");
  for (const [index, block] of blocks.entries()) {
    const type = (block as { type?: unknown } | null)?.type;
    const gate = typeof type === "string" ? gates[type] : undefined;
    if (gate === undefined || (gate !== "baseline" && !promptCapabilities[gate]))
      throw refused(
        `prompt block ${index} has type ${JSON.stringify(type ?? null)}, which verbatim does not accept; send text, image, resource_link or resource blocks`,
        { index, type: typeof type === "string" ? type : null },
      );
    const parsed = promptBlock.safeParse(block);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join(".") || "the block";
      throw refused(`prompt block ${index} is not a valid "${type}" block: ${field}: ${issue?.message ?? "invalid"}`, {
        index,
        type,
      });
    }
  }
  // Checked above, block by block: each is one of ACP's content blocks, kept exactly as sent.
  return blocks as ContentBlock[];
}
