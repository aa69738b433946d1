/**
 * Request parity with everything this issue adds in the context: MCP tool definitions, an image
 * prompt, a project slash command and a compaction. After a reopen in a fresh process (with the
 * same MCP server), the next request equals the one a never-reloaded session sends.
 */
import { describe, expect, test } from "bun:test";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import * as acp from "@agentclientprotocol/sdk";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { stdioServer } from "../support/mcp/configs.ts";
import { PIXEL_PNG } from "../support/mcp/test-tools.ts";
import { kits, modelRef } from "../support/provider-kits.ts";
import { sandbox } from "../support/workspace.ts";

describe.each(kits)("$kind: request parity with MCP tools, images, commands and compaction", (kit) => {
  test("the next request after a reopen equals the one a never-reloaded session sends", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(kit));
    Object.assign(box.env, kit.env(server));
    mkdirSync(join(box.workspace, ".verbatim", "commands"), { recursive: true });
    writeFileSync(join(box.workspace, ".verbatim", "commands", "greet.md"), "Greet $ARGUMENTS warmly.\n");
    const picture: ContentBlock[] = [
      { type: "text", text: "What is this?" },
      { type: "image", data: PIXEL_PNG, mimeType: "image/png" },
    ];
    const servers = [stdioServer("tests")];

    const turns = async (ctx: acp.ClientContext, sessionId: string) => {
      server.enqueue(
        { sse: kit.text("A single pixel.") },
        { sse: kit.text("Hello, Ada!") },
        { sse: kit.text("The user showed a pixel and asked for a greeting.") },
      );
      await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: picture });
      await prompt(ctx, sessionId, "/greet Ada");
      await prompt(ctx, sessionId, "/compact");
    };
    const last = () => ({ sse: kit.text("You're welcome.") });

    const live = await connectProcess(box.env);
    let reopened = "";
    let neverReloaded: unknown;
    try {
      const kept = (await newSession(live.ctx, box.workspace, servers)).sessionId;
      await turns(live.ctx, kept);
      server.enqueue(last());
      await prompt(live.ctx, kept, "Thanks");
      neverReloaded = server.requests.at(-1)?.body;

      reopened = (await newSession(live.ctx, box.workspace, servers)).sessionId;
      await turns(live.ctx, reopened);
    } finally {
      await live.close();
    }
    const fresh = await connectProcess(box.env);
    try {
      await load(fresh.ctx, reopened, box.workspace, servers);
      server.enqueue(last());
      expect((await prompt(fresh.ctx, reopened, "Thanks")).stopReason).toBe("end_turn");
    } finally {
      await fresh.close();
    }
    expect(server.requests.length).toBe(8);
    const afterReload = server.requests.at(-1)?.body;
    expect(afterReload).toEqual(neverReloaded);
    const body = JSON.stringify(afterReload);
    expect(body).toContain("mcp__tests__echo");
    expect(body).toContain("The user showed a pixel and asked for a greeting.");
    // The summary replaced the earlier turns: neither the picture nor the greeting is sent again.
    expect(body).not.toContain(PIXEL_PNG);
    expect(body).not.toContain("Greet Ada warmly.");
    // Before the compaction the model was given the picture and the command's text.
    expect(JSON.stringify(server.requests[0]?.body)).toContain(PIXEL_PNG);
    expect(JSON.stringify(server.requests[1]?.body)).toContain("Greet Ada warmly.");
  });
});
