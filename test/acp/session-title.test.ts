/**
 * `session/set_title` (ACP unstable, `sessionCapabilities.title`), driven as an editor would: the
 * user names a session; the title is a fact (`title_set`), shown live as `session_info_update`,
 * the same after a reload, listed by `session/list`, and never replaced by the automatic title.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { ClientContext } from "@agentclientprotocol/sdk";
import type { SetSessionTitleRequest, SetSessionTitleResponse } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, test } from "bun:test";
import { clientTitle, MAX_CLIENT_TITLE } from "../../src/core/session/retitle.ts";
import { parity } from "../parity/harness.ts";
import { freshDatabase } from "../support/postgres-server.ts";
import { connectProcess, errorOf, load, newSession, prompt } from "../support/acp-session.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

/** `session/set_title`, an unstable method the stable client sends as any method. */
const setTitle = (ctx: ClientContext, params: SetSessionTitleRequest) =>
  ctx.request<SetSessionTitleResponse, SetSessionTitleRequest>("session/set_title", params);

/** The title `session/list` gives the session, from a fresh process. */
async function listedTitle(box: Sandbox, sessionId: string): Promise<string | null | undefined> {
  const c = await connectProcess(box.env);
  try {
    const { sessions } = await c.ctx.request(acp.methods.agent.session.list, {});
    return sessions.find((s) => s.sessionId === sessionId)?.title;
  } finally {
    await c.close();
  }
}

describe("session/set_title", () => {
  test("initialize declares it (sessionCapabilities.title)", async () => {
    const c = await connectProcess(sandbox("scripted/plain").env);
    try {
      const init = await c.ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      expect((init.agentCapabilities?.sessionCapabilities as Record<string, unknown>).title).toEqual({});
    } finally {
      await c.close();
    }
  });

  test("a title the user sets is shown live, and a reload shows the session the same, field by field", async () => {
    const r = await parity("scripted/plain", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Hello");
      expect(await setTitle(ctx, { sessionId, title: "Parser refactor" })).toEqual({ title: "Parser refactor" });
      await prompt(ctx, sessionId, "Carry on");
    });
    expect(r.live.title).toBe("Parser refactor");
    expect(r.reloaded.title).toBe("Parser refactor");
    expect(r.differences).toEqual([]);
  });

  test("session/list lists the session under the title the user set", async () => {
    const r = await parity("scripted/plain", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Hello");
      await setTitle(ctx, { sessionId, title: "Parser refactor" });
    });
    expect(await listedTitle(r.box, r.sessionId)).toBe("Parser refactor");
  });

  test("a title set before the first prompt stays: the prompt gives the session no title of its own", async () => {
    const r = await parity("scripted/plain", async ({ ctx, sessionId }) => {
      await setTitle(ctx, { sessionId, title: "Named first" });
      await prompt(ctx, sessionId, "Hello");
    });
    expect(r.live.title).toBe("Named first");
    expect(await listedTitle(r.box, r.sessionId)).toBe("Named first");
    expect(r.differences).toEqual([]);
  });

  test.each(["sqlite", "postgres"] as const)(
    "%s: a stored session no process holds is retitled without being opened, and a load shows it",
    async (store) => {
      const box = sandbox("scripted/plain");
      if (store === "postgres") box.env.VERBATIM_JOURNAL = await freshDatabase();
      const writer = await connectProcess(box.env);
      let sessionId = "";
      try {
        sessionId = (await newSession(writer.ctx, box.workspace)).sessionId;
        await prompt(writer.ctx, sessionId, "Hello");
      } finally {
        await writer.close();
      }
      const other = await connectProcess(box.env);
      try {
        expect(await setTitle(other.ctx, { sessionId, title: "Renamed later" })).toEqual({ title: "Renamed later" });
        await load(other.ctx, sessionId, box.workspace);
        expect(other.client.view(sessionId).title).toBe("Renamed later");
      } finally {
        await other.close();
      }
      expect(await listedTitle(box, sessionId)).toBe("Renamed later");
    },
  );

  test("a session another live process writes is refused (-32600), and keeps its title", async () => {
    const box = sandbox("scripted/plain");
    const writer = await connectProcess(box.env);
    const other = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await prompt(writer.ctx, sessionId, "Hello");
      const error = await errorOf(setTitle(other.ctx, { sessionId, title: "Not mine" }));
      expect(error.code).toBe(-32600);
      expect(error.data).toMatchObject({ reason: "busy", sessionId });
      expect(writer.client.view(sessionId).title).toBe("Hello");
    } finally {
      await Promise.all([writer.close(), other.close()]);
    }
  });

  test("the title is stored on one line, trimmed, and the answer says so", async () => {
    const box = sandbox("scripted/plain");
    const c = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      expect(await setTitle(c.ctx, { sessionId, title: "  Fix the\n\tparser  " })).toEqual({ title: "Fix the parser" });
      expect(c.client.view(sessionId).title).toBe("Fix the parser");
    } finally {
      await c.close();
    }
  });

  test("an empty title is -32602 and an unknown session -32002; neither records anything", async () => {
    const box = sandbox("scripted/plain");
    const c = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, "Hello");
      expect((await errorOf(setTitle(c.ctx, { sessionId, title: " \n " }))).code).toBe(-32602);
      expect((await errorOf(setTitle(c.ctx, { sessionId: "sess_nope", title: "Anything" }))).code).toBe(-32002);
      expect(c.client.view(sessionId).title).toBe("Hello");
    } finally {
      await c.close();
    }
  });
});

describe("a client's title as stored", () => {
  test("control characters and runs of white space become one space", () => {
    expect(clientTitle("a\u001b[31mb\r\n  c")).toBe("a [31mb c");
  });

  test("past the longest a title is kept, it is cut with an ellipsis", () => {
    const title = clientTitle("x".repeat(MAX_CLIENT_TITLE + 50));
    expect([...title]).toHaveLength(MAX_CLIENT_TITLE);
    expect(title.endsWith("…")).toBe(true);
  });
});
