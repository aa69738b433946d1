/**
 * Prompts with images and attached files: each block is echoed exactly as received, the model is
 * given the image, and a reopened session shows the same blocks, images included.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { texts, parity } from "./harness.ts";

const PNG = Buffer.from("\x89PNG stand-in bytes for a screenshot ".repeat(30)).toString("base64");
const FILE_TEXT = "# Notes\n\nA file the editor attached.\n".repeat(40);

const userBlocks = (view: Awaited<ReturnType<typeof parity>>["live"]) =>
  view.timeline
    .map((k) => view.messages[k.slice("message:".length)])
    .filter((m) => m?.role === "user")
    .map((m) => m!.content);

describe("prompt content", () => {
  test("an image prompt is shown, given to the model, and reopened with the image", async () => {
    const blocks: ContentBlock[] = [
      { type: "text", text: "What does this screenshot show?" },
      { type: "image", data: PNG, mimeType: "image/png" },
    ];
    const r = await parity("scripted/attachments", async ({ ctx, sessionId }) => {
      const { stopReason } = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
      expect(stopReason).toBe("end_turn");
    });
    expect(userBlocks(r.live)).toEqual([blocks]);
    expect(texts(r.live, "agent")[0]).toContain(
      `I see 1 image: image/png (${Buffer.from(PNG, "base64").length} bytes)`,
    );
    expect(r.differences).toEqual([]);
  });

  test("the image is stored once, by hash, not inline in the prompt's record", async () => {
    const blocks: ContentBlock[] = [
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "text", text: "Again?" },
    ];
    const r = await parity("scripted/attachments", async ({ ctx, sessionId }) => {
      await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
      await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
    });
    const db = new Database(join(r.box.home, "journal.db"), { readonly: true });
    try {
      const bodies = db
        .query<{ body: string }, [string]>("SELECT body FROM facts WHERE session_id = ? AND kind = 'prompt_received'")
        .all(r.sessionId);
      expect(bodies.length).toBe(2);
      for (const { body } of bodies) expect(body).not.toContain(PNG);
      expect(
        db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM blobs WHERE session_id = ?").get(r.sessionId)?.n,
      ).toBe(1);
    } finally {
      db.close();
    }
    expect(userBlocks(r.reloaded)).toEqual([blocks, blocks]);
    expect(r.differences).toEqual([]);
  });

  test("resource links and embedded resources are echoed and reopened exactly as received", async () => {
    const blocks: ContentBlock[] = [
      { type: "text", text: "Summarize these." },
      {
        type: "resource_link",
        uri: "file:///project/README.md",
        name: "README.md",
        mimeType: "text/markdown",
        size: 120,
      },
      { type: "resource", resource: { uri: "file:///project/NOTES.md", mimeType: "text/markdown", text: FILE_TEXT } },
      { type: "resource", resource: { uri: "file:///project/logo.png", mimeType: "image/png", blob: PNG } },
    ];
    const r = await parity("scripted/attachments", async ({ ctx, sessionId }) => {
      await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
    });
    expect(userBlocks(r.live)).toEqual([blocks]);
    // The embedded text reaches the model as text (the link and the binary as a mention).
    const answer = texts(r.live, "agent").find((t) => t.startsWith("I see")) ?? "";
    expect(answer).toContain("I see no image.");
    expect(Number(/has (\d+) characters/.exec(answer)?.[1])).toBeGreaterThan(FILE_TEXT.length);
    expect(r.differences).toEqual([]);
  });
});
