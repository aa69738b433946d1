/**
 * `npm run build`: the shipped artifact, `dist/verbatim.js`, a minified bytecode bundle, and next
 * to it `dist/agent.js` (the ACP agent past `initialize`, and the subcommands) and `dist/vendor/`:
 * the provider SDKs, the MCP SDK and the image library, each its own bytecode bundle (the image
 * library's WebP decoder, a `.wasm` file, beside its bundle).
 *
 * A bytecode bundle costs at start for every byte it holds, run or not: with the SDKs inside,
 * starting verbatim took tens of milliseconds longer. They are needed only when a session first
 * streams from a provider or starts an MCP server, so the main bundle loads each from `vendor/`
 * then (still bytecode, so that first use stays quick). `dist/` is self-contained.
 *
 * usage: bun scripts/build.ts [OUTDIR]   (default: dist)
 */
import { rmSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { lazySdkSchemas } from "./lazy-sdk-schemas.ts";
import { pdfjsWithoutImportMeta } from "./pdfjs-without-import-meta.ts";

const ROOT = join(import.meta.dir, "..");
const outdir = resolve(ROOT, process.argv[2] ?? "dist");

/**
 * What the main bundle leaves out: the modules of `src/lazy-sdks/` (each gathers the parts of one SDK
 * or library that verbatim uses; the code imports one only through them), each replaced by its bundle.
 * The PDF library is bundled without bytecode: its bytecode would add 4.5 MB to the package to
 * save about 130 ms on a session's first PDF read (docs/performance.md).
 */
const VENDORED = [
  ...["anthropic-sdk", "openai-sdk", "mcp-sdk", "image-codecs", "shell-parser"].map((name) => ({
    name,
    bytecode: true,
  })),
  { name: "pdf-reader", bytecode: false },
  // The YAML parser is loaded only by a file with front matter, once a session: its bytecode
  // (three times its size) would cost the package more than it saves that one load.
  { name: "yaml", bytecode: false },
  // The sandbox runtime: loaded once a process, by the first command it confines.
  { name: "sandbox-runtime", bytecode: false },
].map(({ name, bytecode }) => ({
  filter: new RegExp(`/lazy-sdks/${name}\\.ts$`),
  entry: `src/lazy-sdks/${name}.ts`,
  name: `${name}.js`,
  bytecode,
}));

/**
 * Everything past the start path: the ACP agent past `initialize` (the SDK, the protocol, the
 * engine) and the subcommands (setup, doctor, chat, run, the terminal UI, ...). `src/cli.ts` and
 * its command table (`src/cli/command-table.ts`, which imports it as `./agent-entry.ts`) reach them
 * only through `src/cli/agent-entry.ts`, built as its own bundle: the start bundle
 * answers `initialize` without it (src/start/early-initialize.ts), then loads it. What crosses is
 * plain data (the rest of stdin, the request answered); a process runs the agent or one subcommand.
 */
const AGENT = { filter: /(^\.|\/cli)\/agent-entry\.ts$/, entry: "src/cli/agent-entry.ts", name: "agent.js" };

/**
 * What drives the OS sandbox's runtime (src/core/sandbox/sandbox-run.ts): the agent loads it with
 * the first command it confines, so the agent's bundle holds none of it.
 */
const SANDBOX_RUN = {
  filter: /(^\.|\/sandbox)\/sandbox-run\.ts$/,
  entry: "src/core/sandbox/sandbox-run.ts",
  name: "sandbox-run.js",
};

/** The bundles the start bundle loads when first needed, beside it in `dist/`. */
const SPLIT = [AGENT];

/** The bundles the agent's bundle loads when first needed, beside it in `dist/`. */
const AGENT_SPLIT = [SANDBOX_RUN];

const splitOff = (bundles: readonly { filter: RegExp; name: string }[]) => ({
  name: "split",
  setup(builder: Bun.PluginBuilder) {
    for (const b of bundles) builder.onResolve({ filter: b.filter }, () => ({ path: `./${b.name}`, external: true }));
  },
});

const common = { target: "bun", format: "cjs", bytecode: true, minify: true } as const;

const vendored = {
  name: "vendored",
  setup(builder: Bun.PluginBuilder) {
    for (const v of VENDORED) {
      builder.onResolve({ filter: v.filter }, () => ({ path: `./vendor/${v.name}`, external: true }));
    }
  },
};

async function build(config: Parameters<typeof Bun.build>[0]): Promise<void> {
  const result = await Bun.build(config);
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`building ${config.entrypoints.join(", ")} failed`);
  }
}

const started = performance.now();
rmSync(outdir, { recursive: true, force: true });
await build({
  ...common,
  entrypoints: [join(ROOT, "src/cli.ts")],
  outdir,
  naming: "verbatim.js",
  plugins: [vendored, splitOff([...SPLIT, ...AGENT_SPLIT])],
});
// The agent's bundle holds the ACP SDK, whose schemas it builds when first used (lazy-sdk-schemas.ts).
for (const b of SPLIT) {
  await build({
    ...common,
    entrypoints: [join(ROOT, b.entry)],
    outdir,
    naming: b.name,
    plugins: [vendored, splitOff(AGENT_SPLIT), lazySdkSchemas],
  });
}
for (const b of AGENT_SPLIT) {
  await build({ ...common, entrypoints: [join(ROOT, b.entry)], outdir, naming: b.name, plugins: [vendored] });
}
for (const v of VENDORED) {
  await build({
    ...common,
    bytecode: v.bytecode,
    plugins: [pdfjsWithoutImportMeta],
    entrypoints: [join(ROOT, v.entry)],
    outdir: join(outdir, "vendor"),
    naming: v.name,
  });
}

// Say what was built, so a build that seemed to do nothing is not mistaken for one that failed.
const size = (path: string) => `${(statSync(path).size / 1024).toFixed(0)} KiB`;
const shown = (path: string) => (relative(process.cwd(), path).startsWith("..") ? path : relative(process.cwd(), path));
const main = join(outdir, "verbatim.js");
console.log(
  `built ${shown(main)} (${size(main)}) in ${((performance.now() - started) / 1000).toFixed(1)} s, with the bundles it loads when first needed:`,
);
for (const b of [...SPLIT, ...AGENT_SPLIT])
  console.log(`  ${shown(join(outdir, b.name))} (${size(join(outdir, b.name))})`);
for (const v of VENDORED)
  console.log(`  ${shown(join(outdir, "vendor", v.name))} (${size(join(outdir, "vendor", v.name))})`);
// The launcher (what npm installs as `verbatim`) runs the checkout's own dist/ only.
const run =
  outdir === join(ROOT, "dist")
    ? `node ${shown(join(ROOT, "bin", "verbatim.js"))}`
    : `${shown(join(ROOT, "node_modules", ".bin", "bun"))} ${shown(main)}`;
console.log(`run it: ${run} --help`);
