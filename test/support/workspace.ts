/** Temporary workspaces and data homes for tests; removed after the test file. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "bun:test";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

export const README_TEXT = "# Sample\n\nLine three.\nLine four.\n";

export type Sandbox = { root: string; workspace: string; home: string; env: Record<string, string> };

/** A workspace with a README.md, a private data home, and the env that points verbatim at them. */
export function sandbox(model = "scripted/demo"): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "verbatim-test-"));
  roots.push(root);
  const workspace = join(root, "workspace");
  const home = join(root, "home");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "README.md"), README_TEXT);
  return { root, workspace, home, env: { VERBATIM_HOME: home, VERBATIM_MODEL: model } };
}
