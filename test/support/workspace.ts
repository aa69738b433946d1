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

export type Sandbox = {
  root: string;
  workspace: string;
  /** verbatim's data home (the journal). */
  home: string;
  /** The user's home ($HOME: `~/.claude` lives here) and config home ($XDG_CONFIG_HOME). */
  userHome: string;
  configHome: string;
  env: Record<string, string>;
};

/**
 * A workspace with a README.md, a private data home, and the env that points verbatim at them.
 * HOME and XDG_CONFIG_HOME point into the sandbox too: a test never reads (or runs hooks from)
 * the real `~/.claude` or `~/.config`.
 */
export function sandbox(model = "scripted/demo"): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "verbatim-test-"));
  roots.push(root);
  const workspace = join(root, "workspace");
  const home = join(root, "home");
  const userHome = join(root, "user");
  const configHome = join(userHome, ".config");
  mkdirSync(workspace);
  mkdirSync(configHome, { recursive: true });
  writeFileSync(join(workspace, "README.md"), README_TEXT);
  return {
    root,
    workspace,
    home,
    userHome,
    configHome,
    env: { VERBATIM_HOME: home, VERBATIM_MODEL: model, HOME: userHome, ...isolatedProviderEnv(configHome) },
  };
}
