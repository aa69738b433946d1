/** Engine conditions the protocol layer turns into typed errors. */
export class EngineError extends Error {
  constructor(
    readonly code:
      | "turn_running"
      | "queue_full"
      | "no_provider"
      | "invalid_config"
      | "unsupported_content"
      | "closed"
      | "not_forkable"
      | "unknown_message"
      | "invalid_title"
      | "cwd_missing"
      | "no_writer"
      | "turn_failed"
      | "following_ended",
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "EngineError";
  }
}
