/**
 * A build step for pdf.js as unpdf ships it (`unpdf/dist/*.mjs`): its few uses of `import.meta`
 * (the URL its WebAssembly image decoders and its canvas factory resolve against, the directory of
 * a separately installed `pdfjs-dist`) become values a CommonJS bundle can hold, so pdf.js builds
 * into a bytecode bundle as the SDKs do, and into the single binary, which is CommonJS. Those
 * paths render pages or decode images inside a PDF; Read only counts pages, takes out text and
 * copies pages, which never reach them (and if one did, it would fail as a broken PDF does).
 */
import { readFileSync } from "node:fs";

/** The URL pdf.js's decoders would resolve against: none, so they fail as not found. */
const NO_URL = JSON.stringify("file:///verbatim-bundled-pdfjs/");

/** The module's text without `import.meta`; throws on a use this step does not know. */
export function withoutImportMeta(text: string): string {
  const out = text
    .replaceAll("import.meta.url", NO_URL)
    .replaceAll(
      "import.meta.resolve(",
      "((specifier) => { throw new Error(`cannot resolve ${specifier} in a bundle`); })(",
    );
  if (out.includes("import.meta")) throw new Error("pdf.js uses import.meta in a way this build step does not know");
  return out;
}

export const pdfjsWithoutImportMeta: Bun.BunPlugin = {
  name: "pdfjs-without-import-meta",
  setup(builder) {
    builder.onLoad({ filter: /\/node_modules\/unpdf\/dist\/.*\.mjs$/ }, ({ path }) => ({
      contents: withoutImportMeta(readFileSync(path, "utf8")),
      loader: "js",
    }));
  },
};
