/** The build step that lets pdf.js build as CommonJS (scripts/pdfjs-without-import-meta.ts). */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { withoutImportMeta } from "../../scripts/pdfjs-without-import-meta.ts";
import { CHECKOUT } from "../support/build.ts";

const DIST = join(CHECKOUT, "node_modules", "unpdf", "dist");

describe("pdf.js without import.meta", () => {
  test("every module unpdf ships is left with no import.meta", () => {
    const modules = readdirSync(DIST).filter((f) => f.endsWith(".mjs"));
    expect(modules.length).toBeGreaterThan(0);
    for (const file of modules)
      expect(withoutImportMeta(readFileSync(join(DIST, file), "utf8"))).not.toContain("import.meta");
  });

  test("a use it does not know fails the build rather than shipping a module that cannot load", () => {
    expect(() => withoutImportMeta("const dir = import.meta.dirname;")).toThrow("does not know");
  });
});
