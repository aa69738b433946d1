/**
 * `verbatim sessions` for a person: a header, relative times, the model, the turn count, and each
 * subagent session under the session whose Task call started it; the parent's `show` names that
 * child on its Task card, as its `subagent_started` record names it.
 */
import { describe, expect, test } from "bun:test";
import { relativeTime } from "../../src/cli/relative-time.ts";
import { openJournal } from "../../src/core/config/open-journal.ts";
import { lastJsonLine, runCli } from "../support/cli-process.ts";
import { initializedRawAgent } from "../support/raw-client.ts";
import { sandbox } from "../support/workspace.ts";

const sessionOf = (stderr: string) => /session (ses_[0-9a-z]+)/.exec(stderr)?.[1] as string;

describe("verbatim sessions", () => {
  test("a header, then each session's time, model, turns, title and directory; its subagents under it", async () => {
    const box = sandbox("scripted/subagent");
    const parent = sessionOf((await runCli(["run", "--cwd", box.workspace, "Inspect it"], box.env)).stderr);
    const env = { ...box.env, VERBATIM_MODEL: "scripted/plain" };
    const plain = sessionOf((await runCli(["run", "--cwd", box.workspace, "Hello there"], env)).stderr);
    await runCli(["run", "--session", plain, "--cwd", box.workspace, "Again"], env);
    const store = openJournal(box.env);
    const [child] = await store.children(parent);
    await store.close();

    const lines = (await runCli(["sessions"], box.env)).stdout.trimEnd().split("\n");
    const size = "\\d+(\\.\\d)? (B|KiB|MiB)";
    expect(lines[0]).toMatch(/^SESSION +UPDATED +MODEL +TURNS +SIZE +TITLE +DIRECTORY$/);
    expect(lines[1]).toMatch(
      new RegExp(`^${plain} +just now +scripted/plain +2 +${size} +Hello there +${box.workspace}$`),
    );
    expect(lines[2]).toMatch(
      new RegExp(`^${parent} +just now +scripted/subagent +1 +${size} +Inspect it +${box.workspace}$`),
    );
    expect(lines[3]).toMatch(
      new RegExp(`^  ↳ ${child!.sessionId} +just now +scripted/subagent +1 +${size} +general-purpose: Inspect it$`),
    );
    expect(lines[4]).toBe("");
    expect(lines[5]).toMatch(new RegExp(`^journal: ${size} \\(${box.home}/journal\\.db\\)$`));
    expect(lines).toHaveLength(6);
  });

  test("--json gives each session's size in bytes, the size the table shows", async () => {
    const box = sandbox("scripted/plain");
    const id = sessionOf((await runCli(["run", "--cwd", box.workspace, "Hello there"], box.env)).stderr);
    const listed = JSON.parse((await runCli(["sessions", "--json"], box.env)).stdout.trim()) as { bytes: number };
    const store = openJournal(box.env);
    try {
      expect(listed.bytes).toBe(await store.sessionBytes(id));
      expect(listed.bytes).toBeGreaterThan(1000);
    } finally {
      await store.close();
    }
  });

  test("a turn a rewind took back is not counted: TURNS is what a reopened client is shown", async () => {
    const box = sandbox("scripted/demo");
    const json = async (args: string[]) =>
      lastJsonLine((await runCli(["run", "--json", "--cwd", box.workspace, ...args], box.env)).stdout) as {
        sessionId: string;
        lastMessageId: string;
      };
    const first = await json(["Overview"]);
    await json(["--session", first.sessionId, "Now the missing file"]);
    await json(["--session", first.sessionId, "And once more"]);
    const turns = async () =>
      (await runCli(["sessions"], box.env)).stdout.split("\n").find((l) => l.startsWith(first.sessionId));
    expect(await turns()).toMatch(/ scripted\/demo +3 +[0-9.]+ (B|KiB|MiB) +Overview /);
    expect((await runCli(["rewind", first.sessionId, "--to", first.lastMessageId], box.env)).code).toBe(0);
    expect(await turns()).toMatch(/ scripted\/demo +1 +[0-9.]+ (B|KiB|MiB) +Overview /);
    await json(["--session", first.sessionId, "A new second turn"]);
    expect(await turns()).toMatch(/ scripted\/demo +2 +[0-9.]+ (B|KiB|MiB) +Overview /);
  });

  test("a session a live process holds is marked running, with that process, in the table and in --json", async () => {
    const box = sandbox("scripted/plain");
    const writer = await initializedRawAgent(box.env);
    try {
      const created = await writer.request("session/new", { cwd: box.workspace, mcpServers: [] });
      const id = (created.result as { sessionId: string }).sessionId;
      await writer.request("session/prompt", { sessionId: id, prompt: [{ type: "text", text: "hello" }] });
      const line = (await runCli(["sessions"], box.env)).stdout.split("\n").find((l) => l.startsWith(id));
      expect(line).toEndWith(`  (running: pid ${writer.pid})`);
      const listed = JSON.parse((await runCli(["sessions", "--json"], box.env)).stdout.trim()) as { running?: unknown };
      expect(listed.running).toEqual({ pid: writer.pid });
    } finally {
      writer.endInput();
      await writer.exited;
    }
    const after = (await runCli(["sessions"], box.env)).stdout;
    expect(after).not.toContain("running:");
    expect(JSON.parse((await runCli(["sessions", "--json"], box.env)).stdout.trim())).not.toHaveProperty("running");
  });

  test("the parent's show names the child session on its Task card, as recorded", async () => {
    const box = sandbox("scripted/subagent");
    const parent = sessionOf((await runCli(["run", "--cwd", box.workspace, "Inspect it"], box.env)).stderr);
    const store = openJournal(box.env);
    const [child] = await store.children(parent);
    await store.close();
    const shown = (await runCli(["show", parent], box.env)).stdout.split("\n");
    const card = shown.findIndex((l) => l.startsWith("[other] Task: Inspect the README — completed"));
    expect(shown[card + 1]).toBe(`    ↳ subagent session ${child!.sessionId} (general-purpose)`);
    const childShown = await runCli(["show", child!.sessionId], box.env);
    expect(childShown.code).toBe(0);
    expect(childShown.stdout).toContain("README.md has");
  });
});

describe("relative times", () => {
  const now = Date.parse("2026-03-10T12:00:00.000Z");
  test.each([
    ["2026-03-10T11:59:30.000Z", "just now"],
    ["2026-03-10T11:55:00.000Z", "5 min ago"],
    ["2026-03-10T09:00:00.000Z", "3 h ago"],
    ["2026-03-09T10:00:00.000Z", "yesterday"],
    ["2026-03-06T12:00:00.000Z", "4 days ago"],
    ["2026-01-02T08:00:00.000Z", "2026-01-02"],
  ])("%s is %s", (at, words) => {
    expect(relativeTime(at, now)).toBe(words);
  });
});
