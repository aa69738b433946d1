/**
 * What the model is shown: a provider-neutral conversation that each adapter lowers to its wire.
 * The replay's conversation fold builds it from the journal; the engine's providers take it. Types only.
 */
import type { ModelAttachment, ModelRef } from "../journal/facts/index.ts";

export type UserPart = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export type ModelCall = { providerCallId: string; name: string; input: unknown };

export type ModelToolResult = {
  providerCallId: string;
  name: string;
  text: string;
  isError: boolean;
  /** Images and documents the call gave with its text; each wire places them where it can. */
  attachments?: ModelAttachment[];
};

export type ModelMessage =
  | { role: "user"; content: UserPart[] }
  | {
      role: "assistant";
      /** The answer text the step produced (what the client was shown). */
      text: string;
      calls: ModelCall[];
      /** Provider-private data to continue (signatures, encrypted reasoning); only for `model`. */
      continuity?: unknown;
      model: ModelRef;
    }
  | { role: "tool_results"; results: ModelToolResult[] };
