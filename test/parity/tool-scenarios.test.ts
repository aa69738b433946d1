/**
 * Tools and permissions, live versus reload: every card (kind, title, locations, diff, output,
 * status), every permission question and answer, comes back identical in a fresh process, and a
 * reload never asks again nor calls the client's fs or terminals.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { connectProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { outcomeOf, permissionOf, textOf } from "../support/cards.ts";
import { ClientServices } from "../support/client-services.ts";
import { README_TEXT, sandbox } from "../support/workspace.ts";
import { cards, parity, texts } from "./harness.ts";

describe("edits", () => {
  test("an edit shows its diff and location, asks, and runs after allow_once", async () => {
    const r = await parity("scripted/edit", async ({ ctx, sessionId }) => {
      expect((await prompt(ctx, sessionId, "Fix line three")).stopReason).toBe("end_turn");
    });
    const [read, edit] = cards(r.live);
    expect(read).toMatchObject({ name: "Read", kind: "read", status: "completed" });
    expect(edit).toMatchObject({
      name: "Edit",
      kind: "edit",
      status: "completed",
      title: `Edit ${r.box.workspace}/README.md`,
    });
    expect(edit?.locations).toEqual([{ path: `${r.box.workspace}/README.md` }]);
    const diff = edit?.content?.find((c) => c.type === "diff");
    expect(diff).toEqual({
      type: "diff",
      path: `${r.box.workspace}/README.md`,
      oldText: README_TEXT,
      newText: README_TEXT.replace("Line three.", "Line 3."),
    });
    expect(permissionOf(edit)?.options.map((o) => o.kind)).toEqual([
      "allow_once",
      "allow_always",
      "reject_once",
      "reject_always",
    ]);
    expect(permissionOf(edit)?.outcome).toEqual({ outcome: "selected", optionId: "allow_once", kind: "allow_once" });
    expect(textOf(edit?.content)).toContain("Permission: Allow (allowed once).");
    expect(readFileSync(join(r.box.workspace, "README.md"), "utf8")).toContain("Line 3.");
    expect(r.reloadAsked).toBe(0);
    expect(r.differences).toEqual([]);
  });

  test("the permission question carries the card exactly as the update that showed it", async () => {
    const r = await parity("scripted/edit", async ({ ctx, sessionId, client }) => {
      await prompt(ctx, sessionId, "Fix line three");
      const [question] = client.permissionRequests;
      const shown = client.notifications
        .map((n) => n.update)
        .find(
          (u) =>
            u.sessionUpdate === "tool_call_update" &&
            (u._meta as { verbatim?: { permission?: { outcome: unknown } } } | undefined)?.verbatim?.permission
              ?.outcome === null,
        );
      expect(shown).toBeDefined();
      const { sessionUpdate: _u, ...asShown } = shown as typeof shown & { sessionUpdate: string };
      expect(question?.toolCall).toEqual(asShown as NonNullable<typeof question>["toolCall"]);
    });
    expect(r.differences).toEqual([]);
  });

  test("a refused edit ends failed with the answer and the refusal shown; the file is unchanged", async () => {
    const r = await parity(
      "scripted/edit",
      async ({ ctx, sessionId }) => {
        expect((await prompt(ctx, sessionId, "Fix line three")).stopReason).toBe("end_turn");
      },
      { policy: choose("reject_once") },
    );
    const edit = cards(r.live)[1];
    expect(edit?.status).toBe("failed");
    expect(permissionOf(edit)?.outcome).toEqual({ outcome: "selected", optionId: "reject_once", kind: "reject_once" });
    expect(outcomeOf(edit)).toEqual({ by: "user", reason: "" });
    expect(textOf(edit?.content)).toContain("Permission: Refuse (refused).");
    expect(textOf(edit?.content)).toContain("Not run: refused by the user.");
    expect(readFileSync(join(r.box.workspace, "README.md"), "utf8")).toBe(README_TEXT);
    expect(texts(r.live, "agent").at(-1)).toContain("The edit did not happen");
    expect(r.differences).toEqual([]);
  });

  test("allow_always makes a rule: the second edit runs without asking", async () => {
    const r = await parity(
      "scripted/edit",
      async ({ ctx, sessionId, client }) => {
        await prompt(ctx, sessionId, "Fix line three");
        await prompt(ctx, sessionId, "Fix line four");
        expect(client.permissionRequests.length).toBe(1);
      },
      { policy: choose("allow_always") },
    );
    const edits = cards(r.live).filter((c) => c.name === "Edit");
    expect(edits.map((c) => c.status)).toEqual(["completed", "completed"]);
    expect(permissionOf(edits[0])?.outcome).toMatchObject({ optionId: "allow_always" });
    expect(textOf(edits[0]?.content)).toContain("always allowed");
    expect(permissionOf(edits[1])).toBeUndefined();
    expect(readFileSync(join(r.box.workspace, "README.md"), "utf8")).toBe(
      README_TEXT.replace("three.", "3.").replace("four.", "4."),
    );
    expect(r.differences).toEqual([]);
  });

  test("a rule from allow_always still applies after the session is reopened in a fresh process", async () => {
    const box = sandbox("scripted/edit");
    const first = await connectProcess(box.env, { policy: choose("allow_always") });
    const { sessionId } = await newSession(first.ctx, box.workspace);
    await prompt(first.ctx, sessionId, "Fix line three");
    await first.close();
    const second = await connectProcess(box.env, { policy: choose("reject_once") });
    try {
      await load(second.ctx, sessionId, box.workspace);
      await prompt(second.ctx, sessionId, "Fix line four");
      expect(second.client.permissionRequests).toEqual([]);
      expect(cards(second.client.view(sessionId)).at(-1)?.status).toBe("completed");
    } finally {
      await second.close();
    }
  });

  test("an answer naming an option that was not offered fails closed, shown as given", async () => {
    const r = await parity(
      "scripted/edit",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "Fix line three");
      },
      { policy: () => ({ outcome: { outcome: "selected", optionId: "yes-sure" } }) },
    );
    const edit = cards(r.live)[1];
    expect(edit?.status).toBe("failed");
    expect(permissionOf(edit)?.outcome).toEqual({ outcome: "selected", optionId: "yes-sure" });
    expect(textOf(edit?.content)).toContain(
      'Permission: answered with "yes-sure", which was not offered; treated as refused.',
    );
    expect(readFileSync(join(r.box.workspace, "README.md"), "utf8")).toBe(README_TEXT);
    expect(r.differences).toEqual([]);
  });

  test("a cancel while the permission question is open ends the turn cancelled and the call not run", async () => {
    let answer: (value: acp.RequestPermissionResponse) => void = () => {};
    const r = await parity(
      "scripted/edit",
      async ({ ctx, sessionId, client }) => {
        const turn = prompt(ctx, sessionId, "Fix line three");
        while (client.permissionRequests.length === 0) await Bun.sleep(5);
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
        expect((await turn).stopReason).toBe("cancelled");
        // The client answers its open question `cancelled`, as the protocol requires; it changes nothing now.
        answer({ outcome: { outcome: "cancelled" } });
      },
      { policy: () => new Promise((resolve) => (answer = resolve)) },
    );
    const edit = cards(r.live)[1];
    expect(edit?.status).toBe("failed");
    expect(permissionOf(edit)?.outcome).toEqual({ outcome: "cancelled" });
    expect(outcomeOf(edit)?.by).toBe("cancel");
    expect(readFileSync(join(r.box.workspace, "README.md"), "utf8")).toBe(README_TEXT);
    expect(r.differences).toEqual([]);
  });

  test("plan mode refuses the edit without asking; the read still runs", async () => {
    const r = await parity("scripted/edit", async ({ ctx, sessionId, client }) => {
      await ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: "plan" });
      await prompt(ctx, sessionId, "Fix line three");
      expect(client.permissionRequests.length).toBe(0);
    });
    const [read, edit] = cards(r.live);
    expect(read?.status).toBe("completed");
    expect(edit?.status).toBe("failed");
    expect(outcomeOf(edit)).toEqual({ by: "mode", reason: "plan mode allows only read-only tools" });
    expect(textOf(edit?.content)).toContain("Not run: not allowed in this mode");
    expect(readFileSync(join(r.box.workspace, "README.md"), "utf8")).toBe(README_TEXT);
    expect(r.differences).toEqual([]);
  });

  test("with the client's fs, reads and writes go through the editor; a reload calls neither", async () => {
    const services = new ClientServices({ fs: true });
    const r = await parity(
      "scripted/edit",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "Fix line three");
      },
      { services },
    );
    expect(new Set(services.calls)).toEqual(new Set(["fs/read_text_file", "fs/write_text_file"]));
    expect(cards(r.live).map((c) => c.status)).toEqual(["completed", "completed"]);
    expect(readFileSync(join(r.box.workspace, "README.md"), "utf8")).toContain("Line 3.");
    expect(r.reloadAsked).toBe(0);
    expect(r.differences).toEqual([]);
  });

  test("a write creates a file, shown as a diff from nothing", async () => {
    const r = await parity(
      "scripted/write",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "Write notes");
      },
      { policy: choose("allow_once") },
    );
    const [write] = cards(r.live);
    expect(write?.content?.find((c) => c.type === "diff")).toEqual({
      type: "diff",
      path: `${r.box.workspace}/NOTES.md`,
      oldText: null,
      newText: "# Notes\n\nWritten by verbatim.\n",
    });
    expect(readFileSync(join(r.box.workspace, "NOTES.md"), "utf8")).toBe("# Notes\n\nWritten by verbatim.\n");
    expect(r.differences).toEqual([]);
  });
});

describe("searches and fetches", () => {
  test("Glob and Grep cards show their results, the same after reload", async () => {
    const r = await parity("scripted/search", async ({ ctx, sessionId, client }) => {
      await prompt(ctx, sessionId, "Find the lines");
      expect(client.permissionRequests).toEqual([]);
    });
    const [glob, grep] = cards(r.live);
    expect(glob).toMatchObject({ name: "Glob", kind: "search", title: "Find **/*.md", status: "completed" });
    expect(textOf(glob?.content)).toContain(`${r.box.workspace}/README.md`);
    expect(grep).toMatchObject({ name: "Grep", kind: "search", status: "completed" });
    expect(textOf(grep?.content)).toContain(`${r.box.workspace}/README.md:3:Line three.`);
    expect(r.differences).toEqual([]);
  });

  test("a fetch asks, then shows the page's text", async () => {
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response("<h1>Hello</h1><p>from loopback</p>", { headers: { "content-type": "text/html" } }),
    });
    try {
      const r = await parity("scripted/fetch", async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, `${server.url.origin}/page`);
      });
      const [card] = cards(r.live);
      expect(card).toMatchObject({
        name: "WebFetch",
        kind: "fetch",
        title: `Fetch ${server.url.origin}/page`,
        status: "completed",
      });
      expect(textOf(card?.content)).toContain("# Hello\n\nfrom loopback");
      expect(permissionOf(card)?.options[1]?.name).toBe(
        `Always allow WebFetch(domain:${server.url.hostname}) for this session`,
      );
      expect(r.differences).toEqual([]);
    } finally {
      server.stop(true);
    }
  });
});

describe("plans", () => {
  test("a plan updated twice shows each complete list, and the last after reload", async () => {
    const r = await parity("scripted/plan", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Plan it");
    });
    const plans = r.liveNotifications.map((n) => n.update).filter((u) => u.sessionUpdate === "plan");
    expect(plans.map((p) => p.entries.map((e) => e.status))).toEqual([
      ["in_progress", "pending", "pending"],
      ["completed", "completed", "in_progress"],
    ]);
    expect(cards(r.live).map((c) => c.kind)).toEqual(["think", "think"]);
    expect(r.differences).toEqual([]);
  });
});

describe("locations", () => {
  test("a relative path the model gave is not shown as a location (ACP's are absolute); the call fails saying why", async () => {
    const r = await parity("scripted/call", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, 'Read {"file_path":"README.md"}');
    });
    const [card] = cards(r.live);
    expect(card).toMatchObject({ name: "Read", status: "failed" });
    expect(card?.locations ?? []).toEqual([]);
    expect(textOf(card?.content)).toContain("absolute");
    expect(r.differences).toEqual([]);
  });
});
