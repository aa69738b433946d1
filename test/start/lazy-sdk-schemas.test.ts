/**
 * The ACP SDK's schemas are built when first used (scripts/lazy-sdk-schemas.ts,
 * src/shared/lazy-schema.ts): the lazy schema stands for the schema it builds, the SDK's schema
 * modules rewritten that way keep every export and parse every value as the SDK's own modules do
 * while building nothing when evaluated, and the built agent answers malformed requests with the
 * same errors as the agent run from source (whose SDK is not rewritten).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import { lazifySchemaModule } from "../../scripts/lazy-sdk-schemas.ts";
import { lazySchema } from "../../src/shared/lazy-schema.ts";
import "../../src/shared/zod-jitless.ts";
import { buildBundle, CHECKOUT } from "../support/build.ts";
import { sandbox } from "../support/workspace.ts";

const SDK = join(CHECKOUT, "node_modules", "@agentclientprotocol", "sdk", "dist");
/** The SDK's schema modules on the agent's path: v1's unstable entry (what verbatim imports). */
const ZOD_GEN = join(SDK, "v1", "unstable", "schema", "zod.gen.js");
const GUARDS_GEN = join(SDK, "v1", "unstable", "schema", "guards.gen.js");

let scratch = "";
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "verbatim-lazy-schemas-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("a lazy schema", () => {
  test("is built at its first use, once, and never when nothing touches it", () => {
    let built = 0;
    const make = () => {
      built++;
      return z.object({ name: z.string() });
    };
    const untouched = lazySchema(make);
    const schema = lazySchema(make);
    expect(built).toBe(0);
    expect(schema.parse({ name: "a" })).toEqual({ name: "a" });
    expect(schema.safeParse({ name: 1 }).success).toBe(false);
    expect(built).toBe(1);
    void untouched;
  });

  test("is built by a parse only when the input reaches it (zod as verbatim configures it walks no subtree first)", () => {
    const built: string[] = [];
    const counted = <T extends object>(name: string, make: () => T) =>
      lazySchema(() => {
        built.push(name);
        return make();
      });
    const deep = counted("deep", () => z.object({ read: z.boolean() }));
    const shallow = counted("shallow", () => z.object({ deep: z.array(deep).optional() }).optional());
    const request = z.object({ id: z.number(), shallow });
    expect(request.parse({ id: 1 })).toEqual({ id: 1 });
    expect(built).toEqual(["shallow"]);
    expect(request.parse({ id: 1, shallow: { deep: [{ read: true }] } })).toEqual({
      id: 1,
      shallow: { deep: [{ read: true }] },
    });
    expect(built).toEqual(["shallow", "deep"]);
  });

  test("stands for its schema: instanceof, keys, and inside other schemas (lazy or not)", () => {
    const id = lazySchema(() => z.string().min(2));
    const request = lazySchema(() => z.object({ id, tags: z.array(id).optional() }));
    const union = z.union([request, z.null()]);
    const real = z.object({ id: z.string().min(2), tags: z.array(z.string().min(2)).optional() });
    expect(id instanceof z.ZodType).toBe(true);
    expect(request instanceof z.ZodObject).toBe(true);
    expect(Object.keys(request)).toEqual(Object.keys(real));
    expect("parse" in request).toBe(true);
    for (const value of [{ id: "ab" }, { id: "a" }, { id: "ab", tags: ["cd", "e"] }, null, 3]) {
      expect(union.safeParse(value).success).toBe(z.union([real, z.null()]).safeParse(value).success);
      expect(JSON.stringify(request.safeParse(value))).toBe(JSON.stringify(real.safeParse(value)));
    }
  });
});

/** The SDK's module at `path`, rewritten lazily into the scratch folder (its imports made absolute); resolves to its path. */
function lazified(path: string, helper: string, localImports: Record<string, string> = {}): string {
  const zod = Bun.resolveSync("zod/v4", dirname(path));
  let text = lazifySchemaModule(readFileSync(path, "utf8"), helper).replace(/from "zod\/v4"/g, `from "${zod}"`);
  text = text.replace(/from "(\.\.?\/[^"]+)"/g, (_, relative: string) => {
    const target = localImports[relative] ?? join(dirname(path), relative);
    return `from ${JSON.stringify(target)}`;
  });
  const out = join(scratch, `${Math.random().toString(36).slice(2)}-${path.split("/").pop()}`);
  writeFileSync(out, text);
  return out;
}

/** A helper module like lazy-schema.ts that counts the schemas it builds (globalThis.lazySchemasBuilt). */
function countingHelper(): string {
  const path = join(scratch, "counting-lazy-schema.ts");
  writeFileSync(
    path,
    `import { lazySchema as real } from ${JSON.stringify(join(CHECKOUT, "src", "shared", "lazy-schema.ts"))};
     const counter = globalThis as { lazySchemasBuilt?: number };
     counter.lazySchemasBuilt = 0;
     export const lazySchema = (make) => real(() => { counter.lazySchemasBuilt++; return make(); });\n`,
  );
  return path;
}

/** Values every schema is tried with: the shapes of real messages, and wrong ones. */
const SAMPLES: unknown[] = [
  undefined,
  null,
  0,
  -1,
  2 ** 40,
  1.5,
  "",
  "text",
  true,
  [],
  [{ type: "text", text: "hi" }],
  {},
  { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true }, terminal: true } },
  { sessionId: "ses_1", cwd: "/tmp", mcpServers: [] },
  { sessionId: "ses_1", cwd: "/tmp", mcpServers: [{ name: "m", command: "x", args: [], env: [] }] },
  {
    sessionId: "ses_1",
    prompt: [
      { type: "text", text: "hello" },
      { type: "image", data: 3 },
    ],
  },
  { sessionId: "ses_1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "a" } } },
  { sessionId: "ses_1", update: { sessionUpdate: "tool_call", toolCallId: "t", title: "Read", status: "pending" } },
  { type: "text", text: "hello", _meta: { a: 1 } },
  { type: "resource_link", uri: "file:///a", name: "a" },
  { outcome: { outcome: "selected", optionId: "allow" } },
  { stopReason: "end_turn" },
  { mode: "form", message: "m", requestedSchema: { type: "object", properties: {} } },
  { _meta: [1], sessionId: 5 },
];

describe("the SDK's schema modules, built lazily", () => {
  test("keep every export, and parse every sample as the SDK's own modules do", async () => {
    const own = (await import(ZOD_GEN)) as Record<string, z.ZodType>;
    const lazy = (await import(lazified(ZOD_GEN, join(CHECKOUT, "src", "shared", "lazy-schema.ts")))) as Record<
      string,
      z.ZodType
    >;
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(own).sort());
    expect(Object.keys(own).length).toBeGreaterThan(200);
    for (const [name, schema] of Object.entries(own)) {
      for (const sample of SAMPLES) {
        const [mine, theirs] = [lazy[name]?.safeParse(sample), schema.safeParse(sample)];
        expect({ name, sample, result: JSON.stringify(mine) }).toEqual({
          name,
          sample,
          result: JSON.stringify(theirs),
        });
      }
    }
  });

  test("build no schema when evaluated, guards included, and only what a parse needs", async () => {
    const helper = countingHelper();
    const zodGen = lazified(ZOD_GEN, helper);
    const guards = lazified(GUARDS_GEN, helper, { "./zod.gen.js": zodGen });
    const counter = globalThis as { lazySchemasBuilt?: number };
    const module = (await import(guards)) as { StateUpdate?: unknown };
    const schemas = (await import(zodGen)) as Record<string, z.ZodType>;
    expect(module.StateUpdate).toBeDefined();
    expect(counter.lazySchemasBuilt).toBe(0);
    expect(schemas.zSessionId?.parse("ses_1")).toBe("ses_1");
    expect(counter.lazySchemasBuilt).toBe(1);
    schemas.zInitializeRequest?.parse({ protocolVersion: 1 });
    expect(counter.lazySchemasBuilt).toBeGreaterThan(1);
    expect(counter.lazySchemasBuilt).toBeLessThan(Object.keys(schemas).length / 4);
  });

  test("a module whose schema statement does not end where expected fails rather than being half rewritten", () => {
    expect(() => lazifySchemaModule(`export const zA = z.string()\nexport const zB = z.number();\n`)).toThrow(
      "no end found for the schema zA",
    );
    expect(lazifySchemaModule("export const other = 1;\n")).toBe("export const other = 1;\n");
  });
});

describe("the built agent", () => {
  let bundle = "";
  let outdir = "";
  beforeAll(async () => {
    outdir = mkdtempSync(join(tmpdir(), "verbatim-lazy-built-"));
    bundle = await buildBundle(join(outdir, "dist"));
  }, 60_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  /** What the agent at `entry` answers to each of `requests` after `initialize`, one line each. */
  async function answers(entry: string, requests: object[]): Promise<string[]> {
    const box = sandbox("scripted/plain");
    mkdirSync(box.workspace, { recursive: true });
    const child = Bun.spawn([process.execPath, entry], {
      cwd: box.workspace,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ...box.env },
    });
    const lines = [{ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } }, ...requests];
    child.stdin.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    void child.stdin.end();
    const out = await new Response(child.stdout).text();
    await child.exited;
    return out.split("\n").filter((line) => line.length > 0 && !line.includes('"id":0,'));
  }

  test("answers malformed requests with the same errors as the agent run from source", async () => {
    const cwd = "/nonexistent-workspace";
    const requests = [
      { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: 5, mcpServers: [] } },
      { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd, mcpServers: [{ name: "m" }] } },
      { jsonrpc: "2.0", id: 3, method: "session/load", params: { sessionId: 7, cwd, mcpServers: [] } },
      { jsonrpc: "2.0", id: 4, method: "session/prompt", params: { sessionId: "ses_x", prompt: [{ type: 1 }] } },
      { jsonrpc: "2.0", id: 5, method: "session/set_mode", params: { sessionId: "ses_x" } },
      { jsonrpc: "2.0", id: 6, method: "session/list", params: { cursor: 3 } },
    ];
    const built = await answers(bundle, requests);
    expect(built).toHaveLength(requests.length);
    for (const line of built) expect(JSON.parse(line).error).toBeDefined();
    // Sorted: requests the engine answers may be answered after later ones the protocol answers.
    const source = await answers(join(CHECKOUT, "src", "cli.ts"), requests);
    expect([...built].sort()).toEqual([...source].sort());
  }, 60_000);
});
