/**
 * The layering design.md describes, checked on the sources: one table says which folder of src/
 * may import which (type-only imports included), and the table itself goes one way only, so an
 * import back up (or from a folder the table does not know) fails here; there are no import
 * cycles between modules or between the engine's parts; the engine (src/core) never builds
 * session updates or handles JSON-RPC; and replay (src/replay) stays pure: at runtime it imports
 * only replay modules and the fact schemas.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cycles, grouped, importGraph } from "../support/import-graph.ts";

const graph = importGraph();
const ROOT = resolve(import.meta.dir, "../..");

/** The engine's part a module belongs to (`core/tools`, `core/turn`, ...); undefined outside a part. */
const enginePart = (module: string): string | undefined => {
  const parts = module.split("/");
  return parts[0] === "src" && parts[1] === "core" && parts.length > 3 ? `core/${parts[2]}` : undefined;
};

/** What `from` reaches at runtime, itself excluded. */
function runtimeClosure(from: string): Set<string> {
  const seen = new Set<string>();
  const queue = [from];
  while (queue.length > 0) {
    for (const next of graph.runtime.get(queue.pop()!) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen;
}

/**
 * The layers, top to bottom, each with the folders below it that it may import. The entry is
 * src/cli.ts; `shared` is the small helpers (src/shared/), which import nothing of verbatim's;
 * `protocol` is verbatim's ACP extensions (src/protocol/), which the wire, the CLI and the client
 * share; `journal/facts` is the fact schemas, below the stores. The table is a ratchet: it allows
 * only imports some module makes, so a cell nothing uses any more is taken out (a test fails on
 * it), and docs/developing.md shows the same table (another test holds them equal).
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  entry: ["start", "cli", "shared"],
  start: ["acp", "core", "shared"],
  cli: ["acp", "client", "view", "protocol", "core", "replay", "journal", "journal/facts", "shared"],
  client: ["view", "protocol"],
  view: [],
  acp: ["protocol", "core", "replay", "journal", "journal/facts", "shared"],
  protocol: ["journal/facts", "shared"],
  core: ["lazy-sdks", "replay", "journal", "journal/facts", "shared"],
  "lazy-sdks": [],
  replay: ["journal", "journal/facts"],
  journal: ["journal/facts", "shared"],
  "journal/facts": ["shared"],
  shared: [],
};

/** The table's folder of a module: `entry`, `journal/facts`, or the folder under src/. */
export function layerOf(module: string): string {
  const parts = module.split("/");
  if (module === "src/cli.ts") return "entry";
  if (parts.length === 2 || parts[1] === "shared") return "shared";
  if (parts[1] === "journal" && parts[2] === "facts") return "journal/facts";
  return parts[1]!;
}

const modulesUnder = (dir: string) => [...graph.all.keys()].filter((m) => m.startsWith(dir));

describe("imports", () => {
  test("the graph is read from the sources (every layer has modules and imports)", () => {
    for (const dir of ["src/acp/", "src/core/", "src/journal/", "src/replay/", "src/cli/"]) {
      const modules = modulesUnder(dir);
      expect(modules.length).toBeGreaterThan(3);
      expect(modules.some((m) => graph.all.get(m)!.size > 0)).toBe(true);
    }
  });

  test("no module imports itself through others (type-only imports included)", () => {
    expect(cycles(graph.all)).toEqual([]);
  });

  test("no part of the engine imports another that imports it back (core/tools, core/turn, ...)", () => {
    expect(cycles(grouped(graph.all, enginePart))).toEqual([]);
  });

  test("every folder of src/ is in the layer table", () => {
    const unknown = [...new Set([...graph.all.keys()].map(layerOf))].filter((layer) => !(layer in MAY_IMPORT));
    expect(unknown).toEqual([]);
  });

  test("the layer table goes one way: no layer may import one that may import it back", () => {
    expect(cycles(new Map(Object.entries(MAY_IMPORT).map(([layer, below]) => [layer, new Set(below)])))).toEqual([]);
  });

  test("the layer table is a ratchet: every import it allows is one some module makes", () => {
    const made = new Set(
      [...graph.all].flatMap(([from, imports]) =>
        [...imports].filter((to) => to.startsWith("src/")).map((to) => `${layerOf(from)} -> ${layerOf(to)}`),
      ),
    );
    const unused = Object.entries(MAY_IMPORT).flatMap(([from, below]) =>
      below.map((to) => `${from} -> ${to}`).filter((cell) => !made.has(cell)),
    );
    expect(unused).toEqual([]);
  });

  test("docs/developing.md shows the layer table as it is here, row by row", () => {
    const folder = (name: string) => (name === "src/cli.ts" ? "entry" : name.replace(/^src\//, ""));
    const doc = readFileSync(join(ROOT, "docs/developing.md"), "utf8");
    const rows = [...doc.matchAll(/^\| (src\/\S+) \| (.*) \|$/gm)].map((row) => [
      folder(row[1]!),
      [...row[2]!.matchAll(/\bsrc\/[a-z-]+(?:\/facts)?(?:\.ts)?/g)].map((m) => folder(m[0])),
    ]);
    expect(Object.fromEntries(rows)).toEqual(MAY_IMPORT);
  });

  test("every import between folders is one the layer table allows (type-only imports included)", () => {
    const crossings = [...graph.all].flatMap(([from, imports]) =>
      [...imports]
        .filter((to) => to.startsWith("src/"))
        .filter((to) => layerOf(to) !== layerOf(from) && !(MAY_IMPORT[layerOf(from)] ?? []).includes(layerOf(to)))
        .map((to) => `${from} -> ${to}`),
    );
    expect(crossings).toEqual([]);
  });

  test("src/core uses the ACP SDK's data types only: never at runtime, never a session update or a connection", () => {
    const wire =
      /\b(SessionUpdate|SessionNotification|AgentContext|ClientContext|AgentApp|RequestError|Connection|methods)\b/;
    const found = modulesUnder("src/core/").flatMap((m) => {
      const runtime = [...graph.packages.get(m)!].filter((p) => p.startsWith("@agentclientprotocol/"));
      const code = readFileSync(join(ROOT, m), "utf8");
      const named = [...code.matchAll(/^\s*import\b([^;]*?)\bfrom\s*["']@agentclientprotocol\/[^"']*["']/gms)]
        .filter((i) => wire.test(i[1]!))
        .map((i) => i[0].trim());
      return [...runtime.map((p) => `${m}: runtime import of ${p}`), ...named.map((i) => `${m}: ${i}`)];
    });
    expect(found).toEqual([]);
  });

  test("src/acp imports the journal's stores at runtime for their errors only (the engine reads and writes the journal)", () => {
    const found = modulesUnder("src/acp/").flatMap((m) =>
      [...graph.runtime.get(m)!]
        .filter((to) => layerOf(to) === "journal" && to !== "src/journal/errors.ts")
        .map((to) => `${m} -> ${to}`),
    );
    expect(found).toEqual([]);
  });

  test("src/replay reaches at runtime only replay modules, the fact schemas and zod (no I/O, clock or tool code)", () => {
    // The fact schemas are built when first used (lazy-schema.ts, pure itself).
    const pure = (m: string) =>
      m.startsWith("src/replay/") || m.startsWith("src/journal/facts/") || m === "src/shared/lazy-schema.ts";
    const found = modulesUnder("src/replay/").flatMap((m) => {
      const reached = [...runtimeClosure(m)];
      const packages = [...new Set([m, ...reached].flatMap((r) => [...(graph.packages.get(r) ?? [])]))].filter(
        (p) => p !== "zod",
      );
      return [...reached.filter((r) => !pure(r)), ...packages].map((r) => `${m} -> ${r}`);
    });
    expect(found).toEqual([]);
  });

  test("src/replay reads no clock, process, timer or Bun API of its own", () => {
    const impure =
      /\b(Date\.now|new Date\(|performance\.|process\.|Bun\.|setTimeout|setInterval|setImmediate|queueMicrotask|fetch\(|Math\.random)/;
    const found = modulesUnder("src/replay/").filter((m) => impure.test(readFileSync(join(ROOT, m), "utf8")));
    expect(found).toEqual([]);
  });
});
