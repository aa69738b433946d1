/**
 * The import graph of src/: for each module, the modules it imports (resolved, relative imports
 * only), all of them and those that stay at runtime (type-only imports are erased). Read from
 * the sources, as the layering test checks them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export type ImportGraph = {
  /** Module paths relative to the repository root (`src/...`), each with what it imports. */
  all: Map<string, Set<string>>;
  runtime: Map<string, Set<string>>;
  /** Of `runtime`, those evaluated with the module (dynamic `import()`s left out: they are evaluated when called). */
  static: Map<string, Set<string>>;
  /** Package imports (not relative) that stay at runtime, per module. */
  packages: Map<string, Set<string>>;
};

const ROOT = resolve(import.meta.dir, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every module specifier a source names, type-only imports included. */
function allSpecifiers(code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gms)) found.push(m[1]!);
  for (const m of code.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) found.push(m[1]!);
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1]!);
  return found;
}

export function importGraph(): ImportGraph {
  const transpiler = new Bun.Transpiler({ loader: "ts" });
  const graph: ImportGraph = { all: new Map(), runtime: new Map(), static: new Map(), packages: new Map() };
  for (const file of sources(join(ROOT, "src"))) {
    const module = relative(ROOT, file);
    const code = readFileSync(file, "utf8").replace(/^#!.*/, "");
    const local = (specifier: string) =>
      specifier.startsWith(".") ? relative(ROOT, resolve(dirname(file), specifier)) : undefined;
    const all = allSpecifiers(code)
      .map(local)
      .filter((m): m is string => m !== undefined);
    const scanned = transpiler.scanImports(code);
    const runtime = scanned.map((i) => i.path);
    graph.all.set(module, new Set(all));
    graph.runtime.set(module, new Set(runtime.map(local).filter((m): m is string => m !== undefined)));
    const evaluated = scanned.filter((i) => i.kind !== "dynamic-import").map((i) => local(i.path));
    graph.static.set(module, new Set(evaluated.filter((m): m is string => m !== undefined)));
    graph.packages.set(module, new Set(runtime.filter((s) => !s.startsWith("."))));
  }
  return graph;
}

/** The cycles of a graph: each strongly connected component of more than one node (or a self-loop), sorted. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The graph between groups of modules (`group(module)`; modules outside any group left out), self-edges dropped. */
export function grouped(
  graph: Map<string, Set<string>>,
  group: (module: string) => string | undefined,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const a = group(from);
    if (a === undefined) continue;
    const edges = out.get(a) ?? new Set<string>();
    out.set(a, edges);
    for (const to of targets) {
      const b = group(to);
      if (b !== undefined && b !== a) edges.add(b);
    }
  }
  return out;
}
