/**
 * File tools stay inside the session's directories unless the user allows more: a call that
 * reaches outside asks first (even a read), "allow once" lets that call through, "allow for this
 * session" grants the directory for the rest of the session and after reload.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { connectInProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { cards } from "../parity/harness.ts";

function outsideFile(box: Sandbox, name = "secret.txt"): string {
  const dir = join(box.root, "elsewhere");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, "outside content\n");
  return path;
}

describe("access outside the workspace", () => {
  test("a read outside asks first; refused, the file is not read", async () => {
    const box = sandbox("scripted/read-path");
    const path = outsideFile(box);
    const c = await connectInProcess(box.env, { policy: choose("reject_once") });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, path);
      expect(c.client.permissionRequests.length).toBe(1);
      expect(c.client.permissionRequests[0]!.options.map((o) => o.kind)).toEqual([
        "allow_once",
        "allow_always",
        "reject_once",
      ]);
      expect(c.client.permissionRequests[0]!.options[0]!.name).toContain(join(box.root, "elsewhere"));
      const [card] = cards(c.client.view(sessionId));
      expect(card?.status).toBe("failed");
      expect(JSON.stringify(card?.content)).not.toContain("outside content");
    } finally {
      await c.close();
    }
  });

  test("allowed once, that read goes through and the next one asks again", async () => {
    const box = sandbox("scripted/read-path");
    const path = outsideFile(box);
    const c = await connectInProcess(box.env, { policy: choose("allow_once") });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, path);
      expect(JSON.stringify(cards(c.client.view(sessionId))[0]?.content)).toContain("outside content");
      await prompt(c.ctx, sessionId, path);
      expect(c.client.permissionRequests.length).toBe(2);
    } finally {
      await c.close();
    }
  });

  test("allowed for the session, the directory stays open, also after the session is reopened", async () => {
    const box = sandbox("scripted/read-path");
    const path = outsideFile(box);
    const other = outsideFile(box, "other.txt");
    const live = await connectInProcess(box.env, { policy: choose("allow_always") });
    const { sessionId } = await newSession(live.ctx, box.workspace);
    await prompt(live.ctx, sessionId, path);
    await live.close();
    const reopened = await connectInProcess(box.env, { policy: choose("reject_once") });
    try {
      await load(reopened.ctx, sessionId, box.workspace);
      await prompt(reopened.ctx, sessionId, other);
      expect(reopened.client.permissionRequests.length).toBe(0);
      const last = cards(reopened.client.view(sessionId)).pop();
      expect(last?.status).toBe("completed");
    } finally {
      await reopened.close();
    }
  });

  test("bypassPermissions mode reads outside without asking", async () => {
    const box = sandbox("scripted/read-path");
    const path = outsideFile(box);
    const c = await connectInProcess(box.env, { policy: choose("reject_once") });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await c.ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "bypassPermissions" });
      await prompt(c.ctx, sessionId, path);
      expect(c.client.permissionRequests.length).toBe(0);
      expect(cards(c.client.view(sessionId))[0]?.status).toBe("completed");
    } finally {
      await c.close();
    }
  });

  test("a read inside the workspace never asks", async () => {
    const box = sandbox("scripted/read-path");
    const c = await connectInProcess(box.env, { policy: choose("reject_once") });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, join(box.workspace, "README.md"));
      expect(c.client.permissionRequests.length).toBe(0);
    } finally {
      await c.close();
    }
  });
});

describe("additional directories (ACP sessionCapabilities.additionalDirectories)", () => {
  const withExtraRoot = async (box: Sandbox, path: string) => {
    const c = await connectInProcess(box.env, { policy: choose("reject_once") });
    const extra = join(box.root, "elsewhere");
    const { sessionId } = await c.ctx.request(acp.methods.agent.session.new, {
      cwd: box.workspace,
      additionalDirectories: [extra],
      mcpServers: [],
    });
    await prompt(c.ctx, sessionId, path);
    return { c, sessionId, extra };
  };
  const loadWith = async (box: Sandbox, sessionId: string, additionalDirectories?: string[]) => {
    const c = await connectInProcess(box.env, { policy: choose("reject_once") });
    await c.ctx.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: box.workspace,
      mcpServers: [],
      ...(additionalDirectories ? { additionalDirectories } : {}),
    });
    return c;
  };

  test("are advertised in initialize", async () => {
    const box = sandbox("scripted/plain");
    const c = await connectInProcess(box.env);
    try {
      const init = await c.ctx.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      expect(init.agentCapabilities?.sessionCapabilities?.additionalDirectories).toEqual({});
    } finally {
      await c.close();
    }
  });

  test("given to session/new, a file there is read without asking", async () => {
    const box = sandbox("scripted/read-path");
    const path = outsideFile(box);
    const { c, sessionId } = await withExtraRoot(box, path);
    try {
      expect(c.client.permissionRequests).toEqual([]);
      expect(JSON.stringify(cards(c.client.view(sessionId))[0]?.content)).toContain("outside content");
    } finally {
      await c.close();
    }
  });

  test("a load that names them again keeps them; one that omits them leaves them out (a read there asks first)", async () => {
    const box = sandbox("scripted/read-path");
    const path = outsideFile(box);
    const first = await withExtraRoot(box, path);
    await first.c.close();
    const again = await loadWith(box, first.sessionId, [first.extra]);
    try {
      await prompt(again.ctx, first.sessionId, path);
      expect(again.client.permissionRequests).toEqual([]);
    } finally {
      await again.close();
    }
    const without = await loadWith(box, first.sessionId);
    try {
      await prompt(without.ctx, first.sessionId, path);
      expect(without.client.permissionRequests.length).toBe(1);
      expect(cards(without.client.view(first.sessionId)).at(-1)?.status).toBe("failed");
    } finally {
      await without.close();
    }
  });
});
