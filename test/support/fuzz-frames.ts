/**
 * A seeded generator of hostile JSON-RPC input lines for an ACP agent: valid requests for every
 * method, the same with fields deleted, retyped, nulled, made huge or deeply nested; odd ids,
 * envelopes and methods; notifications with ids; responses to nothing; batches; invalid UTF-8
 * and other byte damage; non-object JSON; and lines over the size limit. Every line ends with
 * one newline and holds no other.
 *
 * Requests carry a fresh id each (numbers and strings in turn) unless the line is about ids. The
 * only valid session id they use is the one the test created (`ctx.sessionId`), and no request
 * deletes it, so the journal can be checked afterwards.
 */
import type { Owed } from "./jsonrpc-owed.ts";
import {
  deepNesting,
  NASTY_NUMBERS,
  NASTY_STRINGS,
  randomKey,
  randomString,
  randomValue,
  type Rng,
} from "./fuzz-values.ts";

export type FuzzContext = { sessionId: string; cwd: string; limit: number };

export type FuzzInput = {
  /** The line as sent, ending with "\n". */
  bytes: Uint8Array;
  /** What the line exercises (for the report). */
  family: string;
  /** For a line over the size limit (which cannot be read as JSON): what the agent owes for it. */
  oversized?: Owed;
};

/** A line meant to be within the limit came out larger (huge strings stacked up). */
class OverLimitByChance extends Error {}

type Frame = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; [key: string]: unknown };

const encoder = new TextEncoder();
/** A string value replaced, in the serialized line, by raw JSON text (deep nesting). */
const RAW = /"@@raw-(\d+)@@"/g;

export class FrameGenerator {
  #serial = 0;
  #recentIds: unknown[] = [];
  #raw: string[] = [];

  constructor(
    private readonly r: Rng,
    private readonly ctx: FuzzContext,
  ) {}

  /** The next line. A line that came out over the limit by chance is drawn again. */
  next(): FuzzInput {
    for (;;) {
      try {
        return this.#draw();
      } catch (error) {
        if (!(error instanceof OverLimitByChance)) throw error;
      }
    }
  }

  #draw(): FuzzInput {
    this.#raw = [];
    const r = this.r;
    const family = r.weighted<string>([
      [10, "valid"],
      [40, "mutated"],
      [12, "envelope"],
      [5, "notification"],
      [5, "response"],
      [3, "batch"],
      [14, "bytes"],
      [4, "not-an-object"],
      [0.4, "oversized"],
    ]);
    switch (family) {
      case "valid":
        return this.#line(family, this.#request());
      case "mutated": {
        const frame = this.#request();
        const n = 1 + r.int(3);
        for (let i = 0; i < n; i++) frame.params = this.#mutate(frame.params);
        return this.#line(family, frame);
      }
      case "envelope":
        return this.#line(family, this.#envelope(this.#request()));
      case "notification":
        return this.#line(family, this.#notification());
      case "response":
        return this.#line(family, this.#response());
      case "batch": {
        const items = Array.from({ length: r.int(4) }, () => (r.chance(0.7) ? this.#request() : randomValue(r, 2)));
        return this.#line(family, items);
      }
      case "bytes":
        return this.#bytes(family, this.#text(this.#request()));
      case "not-an-object":
        return this.#bytes(family, encoder.encode(this.#notAnObject()));
      default:
        return this.#oversized(family);
    }
  }

  #id(): unknown {
    const n = ++this.#serial;
    const id = n % 2 === 0 ? 100_000 + n : `f${n}`;
    this.#recentIds.push(id);
    if (this.#recentIds.length > 50) this.#recentIds.shift();
    return id;
  }

  /** A session id: the test's session, a well-formed unknown one, or a hostile one. */
  #sessionId(): unknown {
    const r = this.r;
    return r.weighted<() => unknown>([
      [5, () => this.ctx.sessionId],
      [3, () => `ses_${randomString(r, 16).replace(/[^A-Za-z0-9]/g, "")}0`],
      [
        3,
        () =>
          r.pick([
            "../../etc/passwd",
            "/abs/path",
            "a\u0000b",
            "x".repeat(129),
            "dir/ses",
            "ses\u2028x",
            "\ud800",
            "",
            ".",
            "ses_%00",
          ]),
      ],
      [1, () => randomString(r, 8192)],
    ])();
  }

  #cwd(): unknown {
    const r = this.r;
    return r.weighted<() => unknown>([
      [8, () => this.ctx.cwd],
      [
        1,
        () =>
          r.pick([
            "relative/dir",
            "",
            "/",
            "/nonexistent/dir",
            `${this.ctx.cwd}/../..`,
            `${this.ctx.cwd}\u0000x`,
            "C:\\work",
            "~/x",
          ]),
      ],
      [1, () => randomString(r, 4096)],
    ])();
  }

  #block(): unknown {
    const r = this.r;
    return r.weighted<() => unknown>([
      [
        6,
        () => ({
          type: "text",
          text: r.chance(0.7)
            ? r.pick(["hi", "Hello there", "/compact", "/unknown-command", "tell me more"])
            : randomString(r, 8192),
        }),
      ],
      [
        1,
        () => ({
          type: "image",
          mimeType: r.pick(["image/png", "image/jpeg", "text/plain", ""]),
          data: r.pick(["iVBORw0KGgo=", "", "!!not base64!!", "AAAA"]),
        }),
      ],
      [1, () => ({ type: "audio", mimeType: "audio/wav", data: "UklGRg==" })],
      [
        1,
        () => ({
          type: "resource_link",
          uri: r.pick(["file:///etc/passwd", "https://example.invalid/x", "", "not a uri"]),
          name: randomString(r, 64),
        }),
      ],
      [
        1,
        () => ({
          type: "resource",
          resource: { uri: "file:///x.txt", mimeType: "text/plain", text: randomString(r, 2048) },
        }),
      ],
      [
        1,
        () => ({
          type: "resource",
          resource: { uri: "file:///x.bin", mimeType: "application/octet-stream", blob: "AAECAw==" },
        }),
      ],
      [1, () => ({ type: r.pick(["video", "", "TEXT", "tool_use"]), text: "?" })],
    ])();
  }

  /** A valid request for one of the agent's methods (valid in shape; its ids may be unknown). */
  #request(): Frame {
    const r = this.r;
    const method = r.pick([
      "initialize",
      "authenticate",
      "session/new",
      "session/load",
      "session/resume",
      "session/list",
      "session/close",
      "session/delete",
      "session/prompt",
      "session/prompt",
      "session/set_mode",
      "session/set_config_option",
      "logout",
    ]);
    return { jsonrpc: "2.0", id: this.#id(), method, params: this.#params(method) };
  }

  #params(method: string): Record<string, unknown> {
    const r = this.r;
    switch (method) {
      case "initialize":
        return {
          protocolVersion: r.pick([1, 1, 0, 2]),
          clientCapabilities: r.chance(0.8)
            ? {}
            : { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        };
      case "authenticate":
        return { methodId: r.pick(["api-key", "anthropic", "", "x"]) };
      case "session/new":
        return { cwd: this.#cwd(), mcpServers: [], ...(r.chance(0.3) ? { additionalDirectories: [this.#cwd()] } : {}) };
      case "session/load":
      case "session/resume":
        return { sessionId: this.#sessionId(), cwd: this.#cwd(), mcpServers: [] };
      case "session/list":
        return r.weighted<() => Record<string, unknown>>([
          [3, () => ({})],
          [1, () => ({ cwd: this.#cwd() })],
          [1, () => ({ cursor: randomString(r, 256) })],
        ])();
      case "session/close":
        return { sessionId: r.chance(0.1) ? this.ctx.sessionId : this.#unknownSessionId() };
      case "session/delete":
        return { sessionId: this.#unknownSessionId() };
      case "session/prompt":
        return { sessionId: this.#sessionId(), prompt: Array.from({ length: 1 + r.int(3) }, () => this.#block()) };
      case "session/set_mode":
        return {
          sessionId: this.#sessionId(),
          modeId: r.pick(["default", "acceptEdits", "plan", "bypassPermissions", "Default", "", "yolo"]),
        };
      case "session/set_config_option":
        return {
          sessionId: this.#sessionId(),
          configId: r.pick(["mode", "model", "thought_level", "nope", ""]),
          value: r.pick(["default", "plan", "scripted/plain", "low", "high", "scripted/nope", "", 3, true]),
        };
      default:
        return {};
    }
  }

  /** A session id that is never the test's session (for deletes). */
  #unknownSessionId(): unknown {
    const id = this.#sessionId();
    return id === this.ctx.sessionId ? "ses_never_created" : id;
  }

  /** One structural change somewhere in `value`: a field deleted, nulled, retyped, made huge or deep. */
  #mutate(value: unknown): unknown {
    const r = this.r;
    const change = (node: unknown): unknown => {
      return r.weighted<() => unknown>([
        [3, () => null],
        [3, () => randomValue(r, 2)],
        [2, () => r.pick(NASTY_STRINGS)],
        [1, () => r.pick(NASTY_NUMBERS)],
        [1, () => randomString(r, 32 * 1024)],
        [1, () => this.#deep()],
        [1, () => [node]],
        [1, () => ({ value: node })],
      ])();
    };
    const walk = (node: unknown): unknown => {
      if (Array.isArray(node) && node.length > 0 && r.chance(0.6)) {
        const copy = [...node];
        const i = r.int(copy.length);
        if (r.chance(0.2)) copy.splice(i, 1);
        else copy[i] = walk(copy[i]);
        return copy;
      }
      if (typeof node === "object" && node !== null && !Array.isArray(node)) {
        const entries = Object.entries(node);
        const copy: Record<string, unknown> = { ...(node as Record<string, unknown>) };
        const action = r.int(entries.length > 0 ? 4 : 1);
        if (action === 0) copy[randomKey(r)] = randomValue(r, 2);
        else {
          const [key, child] = r.pick(entries);
          if (action === 1) delete copy[key];
          else if (action === 2) copy[key] = change(child);
          else copy[key] = walk(child);
        }
        return copy;
      }
      return change(node);
    };
    return walk(value);
  }

  /** A placeholder for deeply nested raw JSON, put in when the line is serialized. */
  #deep(): string {
    const depth = this.r.pick([64, 1000, 5000, 20_000]);
    this.#raw.push(deepNesting(this.r, depth));
    return `@@raw-${this.#raw.length - 1}@@`;
  }

  /** Odd ids, versions, methods and params around a valid request. */
  #envelope(frame: Frame): Frame {
    const r = this.r;
    const part = r.int(4);
    if (part === 0) {
      const id = r.pick<() => unknown>([
        () => this.r.pick(this.#recentIds),
        () => null,
        () => r.pick(NASTY_NUMBERS),
        () => 1.5,
        () => r.pick(NASTY_STRINGS),
        () => ({ nested: 1 }),
        () => [1],
        () => true,
        () => undefined,
      ])();
      if (id === undefined) delete frame.id;
      else frame.id = id;
    } else if (part === 1) {
      const version = r.pick([undefined, "1.0", 2, 2.0, null, "2.0 ", ""]);
      if (version === undefined) delete frame.jsonrpc;
      else frame.jsonrpc = version;
    } else if (part === 2) {
      frame.method = r.pick<unknown>([
        "session/teleport",
        "",
        42,
        null,
        "Session/New",
        "session/new ",
        "session/cancel",
        "$/cancel_request",
        "fs/read_text_file",
        "session/update",
        "session/request_permission",
        "logout",
        randomString(r, 256),
      ]);
    } else {
      const params = r.pick<unknown>([undefined, null, [], "params", 0, [frame.params]]);
      if (params === undefined) delete frame.params;
      else frame.params = params;
    }
    return frame;
  }

  #notification(): Frame {
    const r = this.r;
    return r.weighted<() => Frame>([
      [
        3,
        () => ({
          jsonrpc: "2.0",
          method: "session/cancel",
          params: r.chance(0.7) ? { sessionId: this.#sessionId() } : this.#mutate({ sessionId: "x" }),
        }),
      ],
      [
        2,
        () => ({
          jsonrpc: "2.0",
          method: "$/cancel_request",
          params: { requestId: r.chance(0.5) ? r.pick(this.#recentIds) : randomValue(r, 1) },
        }),
      ],
      [
        2,
        () => ({
          jsonrpc: "2.0",
          method: r.pick(["session/update", "unknown/notification", "", "initialized"]),
          params: randomValue(r, 2),
        }),
      ],
    ])();
  }

  #response(): Frame {
    const r = this.r;
    return r.weighted<() => Frame>([
      [
        3,
        () => ({ jsonrpc: "2.0", id: r.chance(0.5) ? this.#id() : r.pick(this.#recentIds), result: randomValue(r, 2) }),
      ],
      [
        2,
        () => ({
          jsonrpc: "2.0",
          id: this.#id(),
          error: r.chance(0.6) ? { code: -32000, message: randomString(r, 64) } : randomValue(r, 1),
        }),
      ],
      [1, () => ({ jsonrpc: "2.0", result: {} })],
      [1, () => ({ jsonrpc: "2.0", id: this.#id(), result: {}, error: { code: 1, message: "both" } })],
    ])();
  }

  #notAnObject(): string {
    const r = this.r;
    return r.pick<() => string>([
      () => "",
      () => "   \t ",
      () => "null",
      () => "42",
      () => '"a string"',
      () => "true",
      () => "[]",
      () => deepNesting(r, r.pick([1000, 100_000])),
      () => '{"jsonrpc":"2.0"}',
      () => "{}",
      () => '\u2028{"jsonrpc":"2.0"}\u2029',
    ])();
  }

  /** A valid request's text damaged at the byte level. */
  #text(frame: Frame): Uint8Array {
    return encoder.encode(this.#serialize(frame));
  }

  #bytes(family: string, text: Uint8Array): FuzzInput {
    const r = this.r;
    let bytes = text;
    const at = r.int(bytes.length + 1);
    const splice = (insert: number[], remove = 0) => {
      remove = Math.min(remove, bytes.length - at);
      const out = new Uint8Array(bytes.length + insert.length - remove);
      out.set(bytes.subarray(0, at));
      out.set(insert, at);
      out.set(bytes.subarray(at + remove), at + insert.length);
      bytes = out;
    };
    const damage = r.int(9);
    if (damage === 0)
      splice(
        r.pick([
          [0xff],
          [0xc0, 0x80],
          [0xed, 0xa0, 0x80],
          [0x80],
          [0xe2, 0x82],
          [0xf4, 0x90, 0x80, 0x80],
          [0xfe, 0xfe],
        ]),
      );
    else if (damage === 1) bytes = bytes.subarray(0, at);
    else if (damage === 2) splice([...encoder.encode(r.pick(["}", ",", '{"x":1}', "]", "garbage", "\u0000"]))]);
    else if (damage === 3) splice([0xef, 0xbb, 0xbf]);
    else if (damage === 4 && bytes.length > 0)
      splice([r.pick([0x00, 0x01, 0x0d, 0x1f, 0x22, 0x5c, 0x7b, 0x7d, 0x7f, 0xff])], 1);
    else if (damage === 5) splice([...encoder.encode("\u2028\u2029")]);
    else if (damage === 6) bytes = Uint8Array.from([...bytes, 0x0d]);
    else if (damage === 7) bytes = Uint8Array.from([...bytes, ...bytes]);
    else
      bytes = Uint8Array.from({ length: 1 + r.int(200) }, () => {
        const b = r.int(256);
        return b === 0x0a ? 0x0b : b;
      });
    return this.#finish(family, bytes);
  }

  /** Lines over the limit, each with what its start says is owed. */
  #oversized(family: string): FuzzInput {
    const r = this.r;
    const limit = this.ctx.limit;
    const pad = "x".repeat(limit + 1 + r.int(2 * limit));
    const id = this.#id();
    const shape = r.int(6);
    if (shape === 0) {
      return this.#finish(
        family,
        encoder.encode(
          JSON.stringify({
            jsonrpc: "2.0",
            id,
            method: "session/prompt",
            params: { sessionId: this.ctx.sessionId, prompt: [{ type: "text", text: pad }] },
          }),
        ),
        { kind: "id", id: id as string | number, method: "session/prompt" },
      );
    }
    if (shape === 1) {
      return this.#finish(
        family,
        encoder.encode(JSON.stringify({ params: { pad }, jsonrpc: "2.0", method: "session/list", id })),
        { kind: "null" },
      );
    }
    if (shape === 2) {
      return this.#finish(family, encoder.encode(JSON.stringify({ jsonrpc: "2.0", id, result: { pad } })), {
        kind: "none",
      });
    }
    if (shape === 3) {
      return this.#finish(family, encoder.encode(`${pad}`), { kind: "null" });
    }
    if (shape === 4) {
      // Exactly at the limit: an ordinary request.
      const base = JSON.stringify({ jsonrpc: "2.0", id, method: "session/list", params: { _meta: { pad: "" } } });
      return this.#finish(
        family,
        encoder.encode(base.replace('"pad":""', `"pad":"${"x".repeat(limit - encoder.encode(base).length)}"`)),
      );
    }
    // One byte over the limit, its id first.
    const base = JSON.stringify({ jsonrpc: "2.0", id, method: "session/list", params: { _meta: { pad: "" } } });
    return this.#finish(
      family,
      encoder.encode(base.replace('"pad":""', `"pad":"${"x".repeat(limit + 1 - encoder.encode(base).length)}"`)),
      { kind: "id", id: id as string | number, method: "session/list" },
    );
  }

  #serialize(value: unknown): string {
    return JSON.stringify(value).replace(RAW, (_, i: string) => this.#raw[Number(i)] ?? "null");
  }

  #line(family: string, value: unknown): FuzzInput {
    return this.#finish(family, encoder.encode(this.#serialize(value)));
  }

  #finish(family: string, body: Uint8Array, oversized?: Owed): FuzzInput {
    if (body.includes(0x0a)) throw new Error(`generator bug: a ${family} line holds a newline`);
    const over = body.length > this.ctx.limit;
    if (over && !oversized) throw new OverLimitByChance();
    if (!over && oversized)
      throw new Error(`generator bug: a ${family} line of ${body.length} bytes is not over the limit`);
    const bytes = new Uint8Array(body.length + 1);
    bytes.set(body);
    bytes[body.length] = 0x0a;
    return { bytes, family, ...(oversized ? { oversized } : {}) };
  }
}
