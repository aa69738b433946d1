/**
 * Work that follows a response on the wire, by construction: it runs once the response to its
 * request has been written to the connection's stream, so whatever it sends (a new session's
 * slash commands, its MCP servers' reports) reaches the client after the response that told the
 * client the session exists. The app serves every stream through `watch`.
 */
import type { AnyMessage, JsonRpcId, Stream } from "@agentclientprotocol/sdk/unstable";

const isResponse = (message: AnyMessage): message is AnyMessage & { id: JsonRpcId } =>
  !("method" in message) && "id" in message;

export class AfterResponse {
  readonly #waiting = new Map<JsonRpcId, () => void>();

  /** Runs `then` once the response to `requestId` is written (never, if none is). */
  then(requestId: JsonRpcId, then: () => void): void {
    this.#waiting.set(requestId, then);
  }

  /** `stream`, with each response written through it releasing the work that waits for it. */
  watch(stream: Stream): Stream {
    const writer = stream.writable.getWriter();
    const writable = new WritableStream<AnyMessage>({
      write: async (message) => {
        await writer.write(message);
        if (!isResponse(message)) return;
        const then = this.#waiting.get(message.id);
        if (!then) return;
        this.#waiting.delete(message.id);
        then();
      },
      close: () => writer.close(),
      abort: (reason: unknown) => writer.abort(reason),
    });
    return { readable: stream.readable, writable };
  }
}
