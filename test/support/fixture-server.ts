/**
 * A model provider on loopback: a Bun.serve server on 127.0.0.1 that answers each request with
 * the next queued response (a recorded SSE stream, or an HTTP error) and records every request
 * it receives (method, path, headers, JSON body). The real SDK clients talk to it over HTTP.
 */
import { afterAll } from "bun:test";

export type FixtureResponse =
  /**
   * An SSE stream, one event per chunk. `drop` resets the connection after the last event: at
   * once, or when the given promise settles (a test releases it once the client has shown what
   * was streamed, so the reset cannot overtake the data).
   */
  | { sse: string[]; drop?: true | Promise<unknown>; headers?: Record<string, string> }
  /** A plain JSON answer, typically an HTTP error. */
  | { status: number; json: unknown; headers?: Record<string, string> }
  /** A web page, as a proxy or a server's error handler answers a wrong URL. */
  | { status: number; html: string };

export type RecordedRequest = { method: string; path: string; headers: Record<string, string>; body: unknown };

export type FixtureServer = {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  /** Queues responses, answered in order. */
  enqueue(...responses: FixtureResponse[]): void;
  /**
   * Answers every request the queue has nothing for by calling `respond` with it (a fake model
   * that answers from what it was sent).
   */
  respondWith(respond: (request: RecordedRequest) => FixtureResponse): void;
  /** How many queued responses were not asked for yet. */
  pending(): number;
  stop(): void;
};

const servers: FixtureServer[] = [];
afterAll(() => {
  for (const s of servers.splice(0)) s.stop();
});

const encoder = new TextEncoder();

export function fixtureServer(): FixtureServer {
  const queue: FixtureResponse[] = [];
  const requests: RecordedRequest[] = [];
  let responder: ((request: RecordedRequest) => FixtureResponse) | undefined;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const text = await req.text();
      const recorded: RecordedRequest = {
        method: req.method,
        path: url.pathname,
        headers: Object.fromEntries(req.headers.entries()),
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(recorded);
      const next = queue.shift() ?? responder?.(recorded);
      if (!next) {
        // 400: not retried, so a test that asks for more than it queued fails at once.
        return Response.json(
          {
            error: {
              type: "invalid_request_error",
              message: `fixture server: nothing queued for ${req.method} ${url.pathname}`,
            },
          },
          { status: 400 },
        );
      }
      if ("json" in next) return Response.json(next.json, { status: next.status, headers: next.headers ?? {} });
      if ("html" in next)
        return new Response(next.html, {
          status: next.status,
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      return new Response(sseBody(next.sse, next.drop), {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...(next.headers ?? {}) },
      });
    },
  });
  const fixture: FixtureServer = {
    origin: `http://127.0.0.1:${server.port}`,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    respondWith: (respond) => {
      responder = respond;
    },
    pending: () => queue.length,
    stop: () => void server.stop(true),
  };
  servers.push(fixture);
  return fixture;
}

/** Streams the events one per chunk; with `drop`, the connection is reset after the last one. */
function sseBody(events: string[], drop: true | Promise<unknown> | undefined): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      const event = events[i++];
      if (event !== undefined) {
        controller.enqueue(encoder.encode(event));
        return;
      }
      if (drop) {
        await (drop === true ? Bun.sleep(0) : drop);
        controller.error(undefined);
      } else {
        controller.close();
      }
    },
  });
}
