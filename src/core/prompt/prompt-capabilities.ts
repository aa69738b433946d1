/**
 * The prompt content verbatim accepts, as `initialize` advertises it (`promptCapabilities`): text
 * and resource links always, images and embedded resources, no audio. One table for the
 * advertisement and the check every prompt gets (prompt-blocks.ts). Imports nothing at runtime:
 * the start path answers `initialize` with it before anything else loads.
 */
import type { PromptCapabilities } from "@agentclientprotocol/sdk";

export const promptCapabilities = {
  image: true,
  audio: false,
  embeddedContext: true,
} as const satisfies PromptCapabilities;
