/**
 * The real shell parser: tree-sitter's bash grammar through web-tree-sitter, both WebAssembly.
 * Loaded the first time a Bash call is judged (core/permissions/rules/shell-tree.ts), never on the
 * start path: the two modules are about 1.5 MB. The `.wasm` files are imported as files, so the
 * build copies them beside this module's bundle (dist/vendor/) and the single-file binary embeds
 * them; they are read from wherever that put them. The build (`scripts/build.ts`) bundles this
 * module apart.
 */
import { isAbsolute } from "node:path";
import { Language, Parser } from "web-tree-sitter";
import bashWasm from "../../node_modules/tree-sitter-bash/tree-sitter-bash.wasm" with { type: "file" };
import runtimeWasm from "../../node_modules/web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };

export type { Node, Tree } from "web-tree-sitter";

/**
 * Where an imported file is: running from source or from the single-file binary its path is
 * absolute; in the built bundle it is relative to the bundle's own folder, which only `require`
 * knows at run time (the build writes `import.meta.dir` and `__dirname` in as the source folder).
 */
const located = (path: string): string => (isAbsolute(path) ? path : require.resolve(path));

/** A parser for bash, ready to parse. */
export async function bashParser(): Promise<Parser> {
  const wasmBinary = await Bun.file(located(runtimeWasm)).bytes();
  await Parser.init({ wasmBinary });
  const language = await Language.load(await Bun.file(located(bashWasm)).bytes());
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}
