/**
 * Canonical tool-call identity with a real adapter: the engine mints the public id when it
 * accepts a step; the provider's id is private pairing data, sent back exactly. A step whose
 * provider ids repeat (within the step, or colliding with a call still open) is rejected whole
 * before any effect.
 */
import { describe, expect, test } from "bun:test";
import type { Fact } from "../../src/journal/facts/index.ts";
import { journalFile } from "../../src/journal/paths.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import type { SessionRuntime } from "../../src/core/session/session-runtime.ts";
import { restoreSession } from "../../src/core/session/restore-session.ts";
import { engineDeps } from "../../src/core/engine-deps.ts";
import { validateStep } from "../../src/core/turn/validate-step.ts";
import { cards, texts } from "../parity/harness.ts";
import { connectInProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { anthropicKit as kit, modelRef } from "../support/provider-kits.ts";
import { anthropicStream } from "../support/sse/anthropic.ts";
import { sandbox } from "../support/workspace.ts";

type Body = {
  messages: { role: string; content: { type: string; id?: string; tool_use_id?: string; content?: string }[] }[];
};

/** The tool_use and tool_result blocks of a request, in order, as `use:<id>` / `result:<id>`. */
const pairing = (body: unknown) =>
  (body as Body).messages.flatMap((m) =>
    m.content.flatMap((b) =>
      b.type === "tool_use" ? [`use:${b.id}`] : b.type === "tool_result" ? [`result:${b.tool_use_id}`] : [],
    ),
  );

async function anthropicSession() {
  const server = fixtureServer();
  const box = sandbox(modelRef(kit));
  Object.assign(box.env, kit.env(server));
  const c = await connectInProcess(box.env);
  const { sessionId } = await newSession(c.ctx, box.workspace);
  return { server, box, c, sessionId };
}

const factsOf = (home: string, sessionId: string): Fact[] => {
  const journal = new SqliteJournal(journalFile(home));
  try {
    return [...journal.read(sessionId)].map((r) => r.fact);
  } finally {
    journal.close();
  }
};

describe("identity", () => {
  test("duplicate provider ids in one step reject the step before any effect: no card, no accepted call, no tool run", async () => {
    const { server, box, c, sessionId } = await anthropicSession();
    const readme = { file_path: `${box.workspace}/README.md` };
    try {
      server.enqueue({
        sse: anthropicStream([
          { type: "text", text: "Reading twice. " },
          { type: "tool_use", id: "toolu_dup", name: "Read", input: readme },
          { type: "tool_use", id: "toolu_dup", name: "Read", input: readme },
        ]),
      });
      await expect(prompt(c.ctx, sessionId, "Read it twice")).rejects.toMatchObject({
        code: -32603,
        message: expect.stringContaining("same id"),
      });
      const view = c.client.view(sessionId);
      expect(cards(view)).toEqual([]);
      expect(texts(view, "agent")[0]).toBe("Reading twice. ");
    } finally {
      await c.close();
    }
    const facts = factsOf(box.home, sessionId);
    expect(facts.some((f) => f.kind.startsWith("tool_call"))).toBe(false);
    expect(facts.find((f) => f.kind === "step_ended")).toMatchObject({ outcome: "failed", calls: [] });
    expect(server.requests.length).toBe(1);
  });

  test("a provider id reused in a later turn gets a new public id, and each use is paired with its own result", async () => {
    const { server, box, c, sessionId } = await anthropicSession();
    const readme = { file_path: `${box.workspace}/README.md` };
    try {
      for (const answer of ["First read.", "Second read."]) {
        server.enqueue(
          { sse: anthropicStream([{ type: "tool_use", id: "toolu_same", name: "Read", input: readme }]) },
          { sse: anthropicStream([{ type: "text", text: answer }]) },
        );
      }
      await prompt(c.ctx, sessionId, "Read it");
      await prompt(c.ctx, sessionId, "Read it again");
      const ids = cards(c.client.view(sessionId)).map((card) => card.toolCallId);
      expect(ids.length).toBe(2);
      expect(new Set(ids).size).toBe(2);
      expect(ids.some((id) => id.includes("toolu_same"))).toBe(false);
    } finally {
      await c.close();
    }
    expect(pairing(server.requests.at(-1)?.body)).toEqual([
      "use:toolu_same",
      "result:toolu_same",
      "use:toolu_same",
      "result:toolu_same",
    ]);
  });
});

describe("a call left open by a dead process", () => {
  /** A session whose process died while a Read call (provider id `toolu_open`) was running. */
  async function crashedSession() {
    const { server, box, c, sessionId } = await anthropicSession();
    await c.close();
    const journal = new SqliteJournal(journalFile(box.home));
    const turnId = "turn_crashed";
    const facts: Fact[] = [
      { kind: "prompt_received", turnId, messageId: "msg_p", blocks: [{ type: "text", text: "Read it" }] },
      {
        kind: "step_ended",
        turnId,
        stepId: "step_1",
        model: { provider: "anthropic", model: kit.model },
        outcome: "completed",
        stopReason: "tool_use",
        calls: [
          {
            toolCallId: "call_open",
            providerCallId: "toolu_open",
            name: "Read",
            input: { file_path: `${box.workspace}/README.md` },
          },
        ],
      },
      {
        kind: "tool_call_announced",
        toolCallId: "call_open",
        name: "Read",
        title: "Read README.md",
        toolKind: "read",
        rawInput: {},
        locations: [],
        content: [],
      },
      { kind: "tool_call_started", toolCallId: "call_open" },
    ];
    try {
      journal.acquire(sessionId);
      let seq = [...journal.read(sessionId)].length + 1;
      for (const fact of facts) journal.append(sessionId, seq++, fact, new Date().toISOString());
      journal.release(sessionId);
    } finally {
      journal.close();
    }
    return { server, box, sessionId };
  }

  test("restored from the journal, it is still open: a step reusing its provider id is rejected", async () => {
    const { box, sessionId } = await crashedSession();
    const deps = engineDeps(box.env);
    try {
      const restored = await restoreSession(deps, {
        sessionId,
        capabilities: { notices: false, compaction: false },
        cache: undefined,
        mcpServers: [],
        io: () => ({ publish: () => undefined, host: {} }),
      });
      const runtime = restored?.runtime as SessionRuntime;
      expect([...runtime.state.openProviderIds()]).toEqual(["toolu_open"]);
      const validation = validateStep(
        [{ index: 0, providerCallId: "toolu_open", name: "Read", json: "{}" }],
        runtime.state.openProviderIds(),
      );
      expect(validation).toEqual({ ok: false, error: expect.stringContaining("still open (toolu_open)") });
      expect(
        validateStep(
          [{ index: 0, providerCallId: "toolu_new", name: "Read", json: "{}" }],
          runtime.state.openProviderIds(),
        ).ok,
      ).toBe(true);
    } finally {
      deps.store.close();
    }
  });

  test("when the session goes on, the model is told the outcome is unknown; reusing the id then gets a new public id", async () => {
    const { server, box, sessionId } = await crashedSession();
    const c = await connectInProcess(box.env);
    try {
      await load(c.ctx, sessionId, box.workspace);
      server.enqueue(
        {
          sse: anthropicStream([
            { type: "tool_use", id: "toolu_open", name: "Read", input: { file_path: `${box.workspace}/README.md` } },
          ]),
        },
        { sse: anthropicStream([{ type: "text", text: "Read it this time." }]) },
      );
      expect((await prompt(c.ctx, sessionId, "Try again")).stopReason).toBe("end_turn");
      const ids = cards(c.client.view(sessionId)).map((card) => card.toolCallId);
      expect(ids[0]).toBe("call_open");
      expect(ids.length).toBe(2);
      expect(ids[1]).not.toBe("call_open");
    } finally {
      await c.close();
    }
    const last = server.requests.at(-1)?.body;
    expect(pairing(last)).toEqual(["use:toolu_open", "result:toolu_open", "use:toolu_open", "result:toolu_open"]);
    expect(JSON.stringify(last)).toContain("outcome is unknown");
  });
});
