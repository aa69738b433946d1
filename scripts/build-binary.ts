/**
 * `npm run build:binary`: verbatim as one executable file (src/cli.ts compiled by `Bun.build`,
 * the entry the npm package's bundle is built from), for the ACP Registry's `binary`
 * distribution. Needs neither Node.js nor Bun where it runs.
 *
 * usage: bun scripts/build-binary.ts [PLATFORM...] [--outdir DIR]   (default: this machine's
 * platform, into dist-bin/)
 *
 * PLATFORM is a registry platform name. Another platform than this machine's is cross-compiled:
 * Bun fetches that platform's runtime once, so that needs the network.
 */
import { resolve, join } from "node:path";
import { parseArgs } from "node:util";
import { lazySdkSchemas } from "./lazy-sdk-schemas.ts";
import { pdfjsWithoutImportMeta } from "./pdfjs-without-import-meta.ts";

const ROOT = join(import.meta.dir, "..");

/** The registry's platform names, and Bun's compile targets for them. */
export const TARGETS = {
  "linux-x86_64": "bun-linux-x64",
  "linux-aarch64": "bun-linux-arm64",
  "darwin-x86_64": "bun-darwin-x64",
  "darwin-aarch64": "bun-darwin-arm64",
  "windows-x86_64": "bun-windows-x64",
  "windows-aarch64": "bun-windows-arm64",
} as const;
export type Platform = keyof typeof TARGETS;

const isPlatform = (name: string): name is Platform => name in TARGETS;

export function hostPlatform(): Platform | undefined {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "arm64" ? "aarch64" : process.arch === "x64" ? "x86_64" : process.arch;
  const name = `${os}-${arch}`;
  return isPlatform(name) ? name : undefined;
}

/** The file name of a platform's binary: `verbatim-<platform>`, `.exe` on Windows. */
export const binaryName = (platform: Platform) => `verbatim-${platform}${platform.startsWith("windows") ? ".exe" : ""}`;

/**
 * Builds one platform's binary into `outdir`; resolves to its path. As the bundles are built
 * (build.ts): minified, bytecode, the ACP SDK's schemas built when first used
 * (lazy-sdk-schemas.ts), and pdf.js without `import.meta` (pdfjs-without-import-meta.ts).
 */
export async function buildBinary(platform: Platform, outdir: string): Promise<string> {
  const outfile = join(outdir, binaryName(platform));
  // This machine's own platform needs no target: Bun uses itself, and nothing is fetched.
  const target = platform === hostPlatform() ? {} : { target: TARGETS[platform] };
  const result = await Bun.build({
    entrypoints: [join(ROOT, "src/cli.ts")],
    compile: { outfile, ...target },
    minify: true,
    bytecode: true,
    plugins: [lazySdkSchemas, pdfjsWithoutImportMeta],
  });
  if (!result.success) throw new Error(`building the ${platform} binary failed: ${result.logs.map(String).join("\n")}`);
  return outfile;
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { outdir: { type: "string" } },
  });
  const outdir = resolve(ROOT, values.outdir ?? "dist-bin");
  const host = hostPlatform();
  const platforms = positionals.length > 0 ? positionals : host ? [host] : [];
  for (const platform of platforms) {
    if (!isPlatform(platform)) {
      console.error(`unknown platform "${platform}"; one of: ${Object.keys(TARGETS).join(", ")}`);
      process.exit(2);
    }
    console.log(await buildBinary(platform, outdir));
  }
}
