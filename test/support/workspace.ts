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

export type Sandbox = { root: string; workspace: string; home: string; config: string; env: Record<string, string> };

/**
 * Provider settings from the developer's own environment, blanked so that a test never reads a
 * real key or config file (and never reaches a real provider).
 */
export const isolatedProviderEnv = (configHome: string): Record<string, string> => ({
  XDG_CONFIG_HOME: configHome,
  ANTHROPIC_API_KEY: "",
  ANTHROPIC_BASE_URL: "",
  ANTHROPIC_AUTH_TOKEN: "",
  OPENAI_API_KEY: "",
  OPENAI_BASE_URL: "",
});

/**
 * A workspace with a README.md, a private data home, an empty config home (`config`, the
 * XDG_CONFIG_HOME), and the env that points verbatim at them.
 */
export function sandbox(model = "scripted/demo"): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "verbatim-test-"));
  roots.push(root);
  const workspace = join(root, "workspace");
  const home = join(root, "home");
  const config = join(root, "config");
  mkdirSync(workspace);
  mkdirSync(config);
  writeFileSync(join(workspace, "README.md"), README_TEXT);
  return { root, workspace, home, config, env: { VERBATIM_HOME: home, VERBATIM_MODEL: model, ...isolatedProviderEnv(config) } };
}
