import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "bun:test";
import { normalizeRemote } from "../../src/core/session/git-remote.ts";
import { readOrigin } from "../../src/core/session/session-origin.ts";
import { git, makeCheckout } from "../support/git-checkout.ts";

const root = mkdtempSync(join(tmpdir(), "verbatim-origin-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("where a session ran", () => {
  test("a directory inside a checkout records the remote without credentials, the inner path, branch and head", () => {
    const repo = join(root, "app");
    const head = makeCheckout(repo, "https://alice:s3cret@Example.com/team/app.git");
    mkdirSync(join(repo, "packages", "web"), { recursive: true });
    const origin = readOrigin(join(repo, "packages", "web"));
    expect(origin).toEqual({
      host: hostname(),
      git: { remote: "example.com/team/app", innerPath: "packages/web", branch: "main", head },
    });
    expect(JSON.stringify(origin)).not.toContain("s3cret");
  });

  test("a packed ref and a detached head are read too", () => {
    const repo = join(root, "packed");
    const head = makeCheckout(repo, "git@example.com:team/app.git");
    git(repo, "pack-refs", "--all");
    expect(readOrigin(repo).git).toEqual({ remote: "example.com/team/app", innerPath: "", branch: "main", head });
    git(repo, "checkout", "-q", "--detach");
    expect(readOrigin(repo).git).toEqual({ remote: "example.com/team/app", innerPath: "", head });
  });

  test("a linked worktree finds its checkout's remote", () => {
    const repo = join(root, "main-tree");
    makeCheckout(repo, "ssh://git@example.com:2222/team/app.git");
    const linked = join(root, "linked-tree");
    git(repo, "worktree", "add", "-q", "-b", "topic", linked);
    expect(readOrigin(linked).git).toMatchObject({ remote: "example.com/team/app", innerPath: "", branch: "topic" });
  });

  test("a directory outside any checkout records only the host", () => {
    const plain = mkdtempSync(join(tmpdir(), "verbatim-plain-"));
    try {
      expect(readOrigin(plain)).toEqual({ host: hostname() });
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  test("HTTPS, SSH and scp-like URLs of one repository normalize alike", () => {
    for (const url of [
      "https://github.com/o/r.git",
      "https://tok@github.com/o/r",
      "ssh://git@GitHub.com/o/r.git",
      "git@github.com:o/r.git",
      "github.com:o/r/",
    ]) {
      expect(normalizeRemote(url)).toBe("github.com/o/r");
    }
    expect(normalizeRemote("/srv/git/r.git")).toBe("/srv/git/r");
  });
});
