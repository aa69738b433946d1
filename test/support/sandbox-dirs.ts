/**
 * The directories and environment of a test sandbox, without any test-runner hooks: usable from
 * scripts (the golden journal generator) as well as from tests (`workspace.ts` adds cleanup).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
 * HOME and XDG_CONFIG_HOME point into the sandbox too: verbatim never reads (or runs hooks from)
 * the real `~/.claude` or `~/.config`. The caller removes `root` when done.
 */
export function makeSandbox(model = "scripted/demo"): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "verbatim-test-"));
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
