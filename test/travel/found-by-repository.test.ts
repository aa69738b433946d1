/** A session is found by the repository it ran in, from any checkout of it, after those recorded in the directory itself. */
import { describe, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { hostname } from "node:os";
import { join } from "node:path";
import { connectProcess, load } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { makeCheckout } from "../support/git-checkout.ts";
import { sandbox } from "../support/workspace.ts";

async function runIn(env: Record<string, string>, cwd: string, text: string): Promise<string> {
  const r = await runCli(["run", "--json", "--cwd", cwd, text], env);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout.trim().split("\n").pop()!) as { sessionId: string }).sessionId;
}

describe("found by repository", () => {
  test("a session recorded in one checkout is listed from another checkout of the same repository, after the local ones, marked with where it ran", async () => {
    const box = sandbox("scripted/plain");
    const ci = join(box.root, "ci", "app");
    const mine = join(box.root, "mine", "app");
    makeCheckout(ci, "https://ci-bot:token@example.com/team/app.git");
    makeCheckout(mine, "git@example.com:team/app.git");
    const other = join(box.root, "other");
    makeCheckout(other, "git@example.com:team/other.git");
    const fromCi = await runIn(box.env, ci, "On CI");
    await runIn(box.env, other, "Elsewhere");
    const local = await runIn(box.env, mine, "Here");

    const listed = await runCli(["sessions", "--cwd", mine, "--json"], box.env);
    const rows = listed.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => r.sessionId)).toEqual([local, fromCi]);
    expect(rows[1]).toMatchObject({ cwd: ci, foundBy: "repository", ranAt: { host: hostname(), cwd: ci } });
    expect(rows[0]).not.toHaveProperty("foundBy");
    expect((await runCli(["sessions", "--cwd", mine], box.env)).stdout).toContain(
      `(same repository; ran on ${hostname()} in ${ci})`,
    );

    const c = await connectProcess(box.env);
    try {
      const { sessions } = await c.ctx.request(acp.methods.agent.session.list, { cwd: mine });
      expect(sessions.map((s) => s.sessionId)).toEqual([local, fromCi]);
      expect(sessions[1]?._meta).toMatchObject({
        verbatim: { foundBy: "repository", ranAt: { host: hostname(), cwd: ci } },
      });
      // Loading it from here replays what was shown where it ran.
      await load(c.ctx, fromCi, mine);
      const shown = await runCli(["show", fromCi], box.env);
      expect(shown.stdout).toContain("On CI");
    } finally {
      await c.close();
    }
  });

  test("a directory at another path inside the repository does not list it", async () => {
    const box = sandbox("scripted/plain");
    const ci = join(box.root, "ci", "app");
    const mine = join(box.root, "mine", "app");
    makeCheckout(ci, "https://example.com/team/app.git");
    makeCheckout(mine, "https://example.com/team/app.git");
    await runIn(box.env, ci, "At the root");
    const sub = join(mine, "docs");
    await Bun.write(join(sub, "x.md"), "x");
    expect((await runCli(["sessions", "--cwd", sub], box.env)).stdout.trim()).toBe("no sessions");
  });
});
