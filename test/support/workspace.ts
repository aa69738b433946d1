/** Temporary workspaces and data homes for tests; removed after the test file. */
import { rmSync } from "node:fs";
import { afterAll } from "bun:test";
import { makeSandbox, type Sandbox } from "./sandbox-dirs.ts";

export { isolatedProviderEnv, README_TEXT, type Sandbox } from "./sandbox-dirs.ts";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/**
 * A workspace with a README.md, a private data home, and the env that points verbatim at them
 * (see `makeSandbox`), removed after the test file.
 */
export function sandbox(model = "scripted/demo"): Sandbox {
  const box = makeSandbox(model);
  roots.push(box.root);
  return box;
}
