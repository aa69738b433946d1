/**
 * A turn that outgrows the window: before every model request of one long turn (40 reads of a
 * large log in a 4,100-token window), old tool output is pruned, then the conversation compacted,
 * and the turn goes on to end as the model ends it. Live and reloaded views are the same; the
 * model's context folded from the journal holds what the pruning and compactions left.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Fact, FactOf } from "../../src/journal/facts/index.ts";
import { journalFile } from "../../src/journal/paths.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { CONTINUE_NOTE, conversation, SUMMARY_PREFIX } from "../../src/replay/conversation.ts";
import { LONG_TURN_FILE, LONG_TURN_READS } from "../../src/core/providers/scripted/window-scenarios.ts";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { prompt } from "../support/acp-session.ts";
import { command, script, settingsPath, writeHooks } from "../support/hooks.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { parity, texts } from "../parity/harness.ts";

/** A build log of about 2,400 characters: each read of it is some 600 tokens. */
const LOG = Array.from({ length: 40 }, (_, i) => `[${String(i).padStart(2, "0")}] compiling module ${i}: ok\n`)
  .join("")
  .repeat(2);

function factsOf(box: Sandbox, sessionId: string): Fact[] {
  const journal = new SqliteJournal(journalFile(box.home));
  try {
    return [...journal.read(sessionId)].map((r) => r.fact);
  } finally {
    journal.closeNow();
  }
}

function longTurnBox(): Sandbox {
  const box = sandbox("scripted/long-turn");
  writeFileSync(join(box.workspace, LONG_TURN_FILE), LOG);
  return box;
}

const isWindowFact = (f: Fact): f is FactOf<"tool_results_pruned"> | FactOf<"compaction_ended"> =>
  f.kind === "tool_results_pruned" || f.kind === "compaction_ended";

/** The notices and usage updates a client was sent, in order, as short labels. */
function windowUpdates(notifications: SessionNotification[]): string[] {
  return notifications.flatMap((n) => {
    const u = n.update;
    if (u.sessionUpdate === "usage_update") return [`usage ${u.used}/${u.size}`];
    if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" && u.content.text.startsWith("Pruned"))
      return ["pruned"];
    return [];
  });
}

async function longTurn(box: Sandbox) {
  return parity(
    "scripted/long-turn",
    async ({ ctx, sessionId }) => {
      expect((await prompt(ctx, sessionId, "Read the build log again and again")).stopReason).toBe("end_turn");
    },
    { box },
  );
}

describe("a turn that outgrows the window", () => {
  test("a 40-step turn prunes, then compacts twice mid-turn, and ends end_turn; live == reload", async () => {
    const r = await longTurn(longTurnBox());
    const facts = factsOf(r.box, r.sessionId);
    expect(facts.filter((f) => f.kind === "tool_call_finished").length).toBe(LONG_TURN_READS);
    const window = facts.filter(isWindowFact);
    expect(window[0]?.kind).toBe("tool_results_pruned");
    const compactions = window.filter((f) => f.kind === "compaction_ended");
    expect(compactions.map((c) => [c.outcome, c.midTurn])).toEqual([
      ["completed", true],
      ["completed", true],
    ]);
    expect(facts.filter((f) => f.kind === "turn_ended")).toEqual([expect.objectContaining({ stopReason: "end_turn" })]);
    // The model counted its reads through both summaries.
    expect(texts(r.live, "agent").at(-1)).toBe(
      `Done: I read ${LONG_TURN_FILE} ${LONG_TURN_READS} times, working from a summary of the earlier reads.`,
    );
    expect(r.differences).toEqual([]);
  });

  test("each pruning is a notice where it happened, followed by its usage update, live and after a reload", async () => {
    const r = await longTurn(longTurnBox());
    const live = windowUpdates(r.liveNotifications);
    expect(live.filter((u) => u === "pruned").length).toBeGreaterThan(2);
    for (const [i, u] of live.entries()) if (u === "pruned") expect(live[i + 1]).toStartWith("usage ");
    // The reload replays the same notices and usage updates in the same order.
    expect(windowUpdates(r.reloadNotifications)).toEqual(live);
    expect(r.differences).toEqual([]);
  });

  test("the model is given a stub for each pruned result, the newest kept, and restarts from each summary", async () => {
    const r = await longTurn(longTurnBox());
    const facts = factsOf(r.box, r.sessionId);
    const lastCompaction = facts.findLastIndex((f) => f.kind === "compaction_ended");
    const [opening, ...rest] = conversation(facts.slice(0, lastCompaction + 1));
    expect(rest).toEqual([]);
    expect(opening?.role === "user" && opening.content).toEqual([
      { type: "text", text: expect.stringContaining("tool calls made so far.") },
      { type: "text", text: CONTINUE_NOTE },
    ]);
    const summary = opening?.role === "user" ? opening.content[0] : undefined;
    expect(summary?.type === "text" && summary.text).toStartWith(SUMMARY_PREFIX);
    // After the last pruning, every older read is a stub and the newest reads are whole.
    const lastPrune = facts.findLastIndex((f) => f.kind === "tool_results_pruned");
    const results = conversation(facts.slice(0, lastPrune + 1)).flatMap((m) =>
      m.role === "tool_results" ? m.results : [],
    );
    const whole = results.filter((x) => !x.text.startsWith("[This tool result"));
    expect(whole.length).toBeGreaterThanOrEqual(1);
    expect(results.slice(-whole.length)).toEqual(whole);
    expect(results[0]?.text).toMatch(/^\[This tool result \(\d+ characters\) was pruned/);
    expect(r.differences).toEqual([]);
  });

  test("a notice says the turn nears the threshold before the first pruning", async () => {
    const r = await longTurn(longTurnBox());
    const facts = factsOf(r.box, r.sessionId);
    const near = facts.findIndex((f) => f.kind === "notice_shown" && f.title.includes("of the model's window"));
    expect(near).toBeGreaterThan(-1);
    expect(near).toBeLessThan(facts.findIndex((f) => f.kind === "tool_results_pruned"));
    expect(r.differences).toEqual([]);
  });

  test("VERBATIM_AUTOCOMPACT_PCT moves the threshold: at 95% the same turn compacts less often", async () => {
    const box = longTurnBox();
    box.env.VERBATIM_AUTOCOMPACT_PCT = "95";
    const r = await longTurn(box);
    const compactions = factsOf(r.box, r.sessionId).filter((f) => f.kind === "compaction_ended");
    expect(compactions.length).toBeLessThan(2);
    expect(r.differences).toEqual([]);
  });

  test("the config file's autoCompactPct moves the threshold too", async () => {
    const box = longTurnBox();
    const path = settingsPath(box, "verbatim-user");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify({ autoCompactPct: 95 }));
    const r = await longTurn(box);
    const compactions = factsOf(r.box, r.sessionId).filter((f) => f.kind === "compaction_ended");
    expect(compactions.length).toBeLessThan(2);
    expect(r.differences).toEqual([]);
  });

  test("Claude Code's CLAUDE_AUTOCOMPACT_PCT_OVERRIDE is honoured too", async () => {
    const box = longTurnBox();
    box.env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE = "50";
    const r = await longTurn(box);
    const compactions = factsOf(r.box, r.sessionId).filter((f) => f.kind === "compaction_ended");
    expect(compactions.length).toBeGreaterThan(2);
    expect(r.differences).toEqual([]);
  });
});

describe("compaction hooks", () => {
  test("PreCompact, SessionStart (compact) and PostCompact fire in order for each mid-turn compaction", async () => {
    const box = longTurnBox();
    const log = join(box.root, "hooks.log");
    const record = (name: string) =>
      script(
        box,
        `${name}.sh`,
        `payload=$(cat); printf '%s %s\\n' "${name}" "$(printf '%s' "$payload" | tr -d '\\n' | sed 's/.*"trigger":"\\([a-z]*\\)".*/\\1/;s/.*"source":"\\([a-z]*\\)".*/\\1/')" >> ${log}`,
      );
    writeHooks(box, "verbatim-user", {
      PreCompact: [{ hooks: [command(record("PreCompact"))] }],
      PostCompact: [{ hooks: [command(record("PostCompact"))] }],
      SessionStart: [{ matcher: "compact", hooks: [command(record("SessionStart"))] }],
    });
    const r = await longTurn(box);
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines).toEqual([
      "PreCompact auto",
      "SessionStart compact",
      "PostCompact auto",
      "PreCompact auto",
      "SessionStart compact",
      "PostCompact auto",
    ]);
    expect(r.differences).toEqual([]);
  });

  test("a PreCompact hook that blocks ends the turn with its reason shown; what was recorded is kept", async () => {
    const box = longTurnBox();
    const block = script(box, "block.sh", `echo "no compaction during the release" >&2; exit 2`);
    writeHooks(box, "verbatim-user", { PreCompact: [{ hooks: [command(block)] }] });
    const r = await longTurn(box);
    const facts = factsOf(r.box, r.sessionId);
    expect(facts.some((f) => f.kind === "compaction_started")).toBe(false);
    expect(facts.filter((f) => f.kind === "turn_ended")).toEqual([expect.objectContaining({ stopReason: "end_turn" })]);
    const reads = facts.filter((f) => f.kind === "tool_call_finished").length;
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(LONG_TURN_READS);
    expect(texts(r.live, "agent").join("\n")).toContain(
      "A PreCompact hook blocked the compaction: no compaction during the release",
    );
    expect(r.differences).toEqual([]);
  });
});

describe("/compact and its hooks", () => {
  test("/compact asks PreCompact with trigger manual and what to keep; a block leaves the context whole, with the reason shown", async () => {
    const box = sandbox("scripted/echo");
    const payload = join(box.root, "precompact.json");
    const block = script(box, "block.sh", `cat > ${payload}; echo "not now" >&2; exit 2`);
    writeHooks(box, "verbatim-user", { PreCompact: [{ hooks: [command(block)] }] });
    const r = await parity(
      "scripted/echo",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "Hello there");
        expect((await prompt(ctx, sessionId, "/compact the greeting")).stopReason).toBe("end_turn");
      },
      { box },
    );
    expect(JSON.parse(readFileSync(payload, "utf8"))).toMatchObject({
      hook_event_name: "PreCompact",
      trigger: "manual",
      custom_instructions: "the greeting",
    });
    const facts = factsOf(r.box, r.sessionId);
    expect(facts.some((f) => f.kind === "compaction_started")).toBe(false);
    expect(texts(r.live, "agent").join("\n")).toContain("A PreCompact hook blocked the compaction: not now");
    expect(r.differences).toEqual([]);
  });
});
