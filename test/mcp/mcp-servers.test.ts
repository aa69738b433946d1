/**
 * MCP servers as a session lives with them: servers that fail to start or die are reported and
 * the session goes on; the tool definitions the model is given are journaled, so a reopened
 * session offers the same ones; and a server's secrets (environment, headers) are never journaled.
 */
import type { McpServer } from "@agentclientprotocol/sdk";
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { journalFile } from "../../src/journal/paths.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import type { FactOf } from "../../src/journal/facts/index.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import { connectProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { httpServer, stdioServer } from "../support/mcp/configs.ts";
import { startHttpMcpServer } from "../support/mcp/http-server.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { cards, parity, texts } from "../parity/harness.ts";

const notices = (view: ViewModel) =>
  view.timeline
    .map((k) => view.messages[k.slice("message:".length)])
    .filter((m) => (m?.meta?.verbatim as { notice?: unknown } | undefined)?.notice)
    .map((m) => m!.content.map((b) => (b.type === "text" ? b.text : "")).join(""));

const listed = (box: Sandbox, sessionId: string) => {
  const journal = new SqliteJournal(journalFile(box.home));
  try {
    return [...journal.read(sessionId)]
      .map((r) => r.fact)
      .filter((f): f is FactOf<"mcp_tools_listed"> => f.kind === "mcp_tools_listed");
  } finally {
    journal.close();
  }
};

const broken: McpServer = { name: "broken", command: "/nonexistent/verbatim-test/mcp-server", args: [], env: [] };

describe("servers that fail", () => {
  test("a server that cannot start is reported, and the session goes on with the others", async () => {
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        expect((await prompt(ctx, sessionId, 'mcp__tests__echo {"text":"still here"}')).stopReason).toBe("end_turn");
      },
      { mcpServers: [broken, stdioServer("tests")] },
    );
    const [notice] = notices(r.live);
    expect(notice).toContain('The MCP server "broken" could not start; the session goes on without it');
    expect(cards(r.live)[0]).toMatchObject({ name: "mcp__tests__echo", status: "completed" });
    expect(texts(r.live, "agent").at(-1)).toBe("The tool answered: echo: still here");
    expect(r.differences).toEqual([]);
  });

  test("a stdio server that dies is reported, its tools are withdrawn, and the session stays usable", async () => {
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "mcp__tests__crash {}");
        await prompt(ctx, sessionId, 'mcp__tests__echo {"text":"anyone?"}');
        expect((await prompt(ctx, sessionId, "Read {}")).stopReason).toBe("end_turn");
      },
      { mcpServers: [stdioServer("tests")] },
    );
    const [crash] = cards(r.live);
    expect(crash).toMatchObject({ name: "mcp__tests__crash", status: "failed" });
    expect(textOf(crash?.content)).toContain("The tests MCP server could not run crash");
    expect(
      notices(r.live).some((n) => n.includes('The MCP server "tests" stopped; its tools are no longer available')),
    ).toBe(true);
    const answers = texts(r.live, "agent").filter((t) => !t.startsWith("The MCP server"));
    expect(answers[1]).toStartWith("I have no tool named mcp__tests__echo. I have: Read, ");
    expect(answers[1]?.split("I have:")[1]).not.toContain("mcp__");
    // The session still runs its other tools.
    expect(cards(r.live).at(-1)).toMatchObject({ name: "Read" });
    expect(r.differences).toEqual([]);
  });

  test("an HTTP server that goes away is reported when a call cannot reach it", async () => {
    const server = startHttpMcpServer();
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, 'mcp__web__echo {"text":"one"}');
        await server.close();
        await prompt(ctx, sessionId, 'mcp__web__echo {"text":"two"}');
        await prompt(ctx, sessionId, 'mcp__web__echo {"text":"three"}');
      },
      { mcpServers: [httpServer("web", server.url)] },
    );
    expect(cards(r.live).map((c) => c.status)).toEqual(["completed", "failed"]);
    expect(notices(r.live).some((n) => n.includes('The MCP server "web" stopped'))).toBe(true);
    expect(texts(r.live, "agent").at(-1)).toStartWith("I have no tool named mcp__web__echo.");
    expect(r.differences).toEqual([]);
  });
});

describe("what the model is given", () => {
  test("the server's tools are journaled with its own JSON schemas, once, before the turn that offers them", async () => {
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, 'mcp__tests__echo {"text":"a"}');
        await prompt(ctx, sessionId, 'mcp__tests__echo {"text":"b"}');
      },
      { mcpServers: [stdioServer("tests")] },
    );
    const [first, ...more] = listed(r.box, r.sessionId);
    expect(more).toEqual([]);
    expect(first?.servers).toEqual([
      {
        name: "tests",
        transport: "stdio",
        status: "connected",
        tools: expect.arrayContaining(["mcp__tests__echo", "mcp__tests__add"]),
      },
    ]);
    const echo = first?.tools.find((t) => t.name === "mcp__tests__echo");
    expect(echo?.description).toBe("Repeats the text it is given.");
    expect(echo?.inputSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    });
  });

  test("a reopened session with the same servers offers the same tools without recording them again", async () => {
    const box = sandbox("scripted/call");
    const first = await connectProcess(box.env);
    const { sessionId } = await newSession(first.ctx, box.workspace, [stdioServer("tests")]);
    await prompt(first.ctx, sessionId, 'mcp__tests__echo {"text":"before"}');
    await first.close();
    const second = await connectProcess(box.env);
    try {
      await load(second.ctx, sessionId, box.workspace, [stdioServer("tests")]);
      await prompt(second.ctx, sessionId, 'mcp__tests__echo {"text":"after"}');
      expect(texts(second.client.view(sessionId), "agent").at(-1)).toBe("The tool answered: echo: after");
    } finally {
      await second.close();
    }
    expect(listed(box, sessionId).length).toBe(1);
  });

  test("reopened without its servers, the session records that their tools are gone and offers none", async () => {
    const box = sandbox("scripted/call");
    const first = await connectProcess(box.env);
    const { sessionId } = await newSession(first.ctx, box.workspace, [stdioServer("tests")]);
    await prompt(first.ctx, sessionId, 'mcp__tests__echo {"text":"before"}');
    await first.close();
    const second = await connectProcess(box.env);
    try {
      await load(second.ctx, sessionId, box.workspace, []);
      await prompt(second.ctx, sessionId, 'mcp__tests__echo {"text":"after"}');
      expect(texts(second.client.view(sessionId), "agent").at(-1)).toStartWith(
        "I have no tool named mcp__tests__echo.",
      );
    } finally {
      await second.close();
    }
    expect(listed(box, sessionId).map((f) => f.tools.length)).toEqual([expect.any(Number), 0]);
  });

  test("loading with a server that fails writes nothing; the failure is recorded with the next prompt", async () => {
    const box = sandbox("scripted/plain");
    const first = await connectProcess(box.env);
    const { sessionId } = await newSession(first.ctx, box.workspace);
    await prompt(first.ctx, sessionId, "Hello");
    await first.close();
    const before = dumpDatabase(journalFile(box.home));
    const second = await connectProcess(box.env);
    try {
      await load(second.ctx, sessionId, box.workspace, [broken]);
      await Bun.sleep(300);
      expect(dumpDatabase(journalFile(box.home))).toEqual(before);
      await prompt(second.ctx, sessionId, "Hello again");
      expect(notices(second.client.view(sessionId)).some((n) => n.includes('"broken" could not start'))).toBe(true);
    } finally {
      await second.close();
    }
  });
});

describe("secrets", () => {
  const http = startHttpMcpServer();
  afterAll(() => http.close());

  test("a server's environment and headers reach it and are never journaled", async () => {
    const envSecret = "env-secret-value-7d1c9a";
    const headerSecret = "header-secret-value-4b2e8f";
    const querySecret = "query-secret-value-1a3c5e";
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "mcp__tests__secret_length {}");
        await prompt(ctx, sessionId, 'mcp__web__echo {"text":"hi"}');
      },
      {
        mcpServers: [
          stdioServer("tests", [{ name: "MCP_TEST_SECRET", value: envSecret }]),
          httpServer("web", http.url, [{ name: "X-Api-Key", value: headerSecret }]),
          httpServer("gone", `http://127.0.0.1:9/mcp?token=${querySecret}`, [
            { name: "X-Api-Key", value: headerSecret },
          ]),
        ],
      },
    );
    expect(texts(r.live, "agent")).toContain(`The tool answered: MCP_TEST_SECRET has ${envSecret.length} characters`);
    expect(http.headers.some((h) => h["x-api-key"] === headerSecret)).toBe(true);
    expect(notices(r.live).some((n) => n.includes('"gone" could not start'))).toBe(true);
    const path = journalFile(r.box.home);
    const stored = [path, `${path}-wal`]
      .filter(existsSync)
      .map((p) => readFileSync(p).toString("latin1"))
      .join("");
    expect(stored).toContain("MCP_TEST_SECRET has");
    for (const secret of [envSecret, headerSecret, querySecret]) {
      expect(stored).not.toContain(secret);
      expect(JSON.stringify(dumpDatabase(path))).not.toContain(secret);
      expect(JSON.stringify(r.live)).not.toContain(secret);
    }
    expect(r.differences).toEqual([]);
  });
});
