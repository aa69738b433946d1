/**
 * What verbatim tells a client in `initialize`: only what it implements. Types only from the SDK:
 * the start path answers `initialize` with this before the SDK is loaded (src/start/).
 */
import type {
  AgentCapabilities,
  AuthMethod,
  InitializeResponse,
  SessionForkCapabilities,
} from "@agentclientprotocol/sdk/unstable";
import { promptCapabilities } from "../core/prompt/prompt-capabilities.ts";

/**
 * The protocol version verbatim speaks, whatever the client asked for: the SDK's `PROTOCOL_VERSION`
 * (test/start/early-initialize.test.ts holds them equal), written out so that answering needs no SDK.
 */
export const PROTOCOL_VERSION = 1;

export const agentCapabilities: AgentCapabilities = {
  loadSession: true,
  promptCapabilities,
  mcpCapabilities: { http: true, sse: true },
  // `fork` is unstable (SDK 2.4.0's `SessionForkCapabilities`, from its unstable entry point): `{}` offers `session/fork`;
  // `atMessageId` (the fork-at-message RFD, not yet in the SDK's type) says it takes a `messageId`.
  sessionCapabilities: {
    list: {},
    resume: {},
    close: {},
    delete: {},
    additionalDirectories: {},
    fork: { atMessageId: true } as SessionForkCapabilities,
    // Unstable (SDK 2.4.0): `session/set_title` (title-handler.ts).
    title: {},
  },
  // The session-rewind RFD's methods, served as extension methods (SDK 2.4.0 has neither):
  // `_verbatim/session/rewind` and `_verbatim/session/edit_prompt`, with `files` to restore edits too;
  // and the multi-client attach RFD's, as `_verbatim/session/attach` and `_verbatim/session/detach`:
  // an observer follows a session any process runs; a controller also answers its permission questions.
  // `claudeCode.promptQueueing` (claude-agent-acp's): a `session/prompt` while a turn runs waits its turn
  // rather than being refused (src/core/session/turn-line.ts).
  _meta: {
    claudeCode: { promptQueueing: true },
    verbatim: {
      rewind: { editPrompt: true, files: true },
      attach: { roles: ["observer", "controller"], historyPolicies: ["full", "none"], replayFrom: true },
    },
  },
};

/** `authMethods`: the ways to configure a model provider, offered only while none is configured. */
export function initializeResponse(version: string, authMethods: AuthMethod[] = []): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities,
    agentInfo: { name: "verbatim", title: "verbatim", version },
    authMethods,
    // `_session/steering` (steering-handler.ts), advertised where the Claude and Codex adapters do: the result's own `_meta`.
    _meta: { steering: { supported: true } },
  };
}
