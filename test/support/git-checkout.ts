/** A real git checkout in a temporary directory (git runs with no user config, no network). */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";

const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.invalid",
};

export const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8" }).trim();

/** Initializes `dir` as a checkout on branch `main` with one commit and `remote` as origin; returns the head commit. */
export function makeCheckout(dir: string, remote: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "remote", "add", "origin", remote);
  git(dir, "commit", "-q", "--allow-empty", "-m", "start");
  return git(dir, "rev-parse", "HEAD");
}
