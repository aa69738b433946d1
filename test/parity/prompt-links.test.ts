/**
 * A prompt's links to files: read when the prompt is received (inside the session's directories
 * only), given to the model in the link's place as an embedded resource would be, shown to the
 * client as a line saying so, and given the same way after a reopen, whatever the file holds then.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { connectProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { imageBytes } from "../support/media.ts";
import { simplePdf } from "../support/pdf-fixture.ts";
import { chatKit, modelRef } from "../support/provider-kits.ts";
import { sandbox } from "../support/workspace.ts";
import { parity, texts } from "./harness.ts";

const NOTES = "# Notes\n\nThe release is on Friday.\n";

const link = (path: string, name: string): ContentBlock => ({
  type: "resource_link",
  uri: pathToFileURL(path).href,
  name,
});

describe("links to files in a prompt", () => {
  test("a linked text file is read, the client is told so, and a reopened session shows the same", async () => {
    const box = sandbox("scripted/attachments");
    const notes = join(box.workspace, "notes.md");
    writeFileSync(notes, NOTES);
    const blocks = [{ type: "text", text: "Summarize" } as ContentBlock, link(notes, "notes.md")];
    const r = await parity(
      "scripted/attachments",
      async ({ ctx, sessionId }) => {
        await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
      },
      { box },
    );
    expect(r.differences).toEqual([]);
    const [line, answer] = texts(r.live, "agent");
    expect(line).toBe(`Read ${notes} (${NOTES.length} bytes) and gave it to the model with the prompt.`);
    // The model's text holds the file: "Summarize" and the resource around the notes.
    const resource = `<resource uri="${pathToFileURL(notes).href}">\n${NOTES}\n</resource>`;
    expect(answer).toContain(`${"Summarize".length + resource.length} characters of text`);
  });

  test("a linked image is given to the model as an image", async () => {
    const box = sandbox("scripted/attachments");
    const png = await imageBytes(10, 10);
    const shot = join(box.workspace, "shot.png");
    writeFileSync(shot, png);
    const r = await parity(
      "scripted/attachments",
      async ({ ctx, sessionId }) => {
        await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [link(shot, "shot.png")] });
      },
      { box },
    );
    expect(texts(r.live, "agent")[1]).toContain(`I see 1 image: image/png (${png.length} bytes)`);
    expect(r.differences).toEqual([]);
  });

  test("a linked PDF is given to the model as its pages' text; one Read would refuse whole is not read, saying why", async () => {
    const box = sandbox("scripted/attachments");
    const spec = join(box.workspace, "spec.pdf");
    writeFileSync(spec, simplePdf(["Release on Friday", "Ship the notes"], {}));
    const long = join(box.workspace, "long.pdf");
    writeFileSync(
      long,
      simplePdf(
        Array.from({ length: 11 }, (_, i) => `Page ${i + 1}`),
        {},
      ),
    );
    const r = await parity(
      "scripted/attachments",
      async ({ ctx, sessionId }) => {
        await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [link(spec, "spec.pdf")] });
        await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [link(long, "long.pdf")] });
      },
      { box },
    );
    expect(r.differences).toEqual([]);
    const [read, answer, refused] = texts(r.live, "agent");
    expect(read).toStartWith(`Read ${spec} (`);
    expect(refused).toStartWith(`Did not read ${long}: ${long} is a PDF of 11 pages`);
    const text = '<page number="1">\nRelease on Friday\n</page>\n<page number="2">\nShip the notes\n</page>';
    const resource = `<resource uri="${pathToFileURL(spec).href}">\n${text}\n</resource>`;
    expect(answer).toContain(`${resource.length} characters of text`);
  });

  test("a link outside the session's directories, or to a missing or binary file, is not read, saying why", async () => {
    const box = sandbox("scripted/attachments");
    const binary = join(box.workspace, "tool.bin");
    writeFileSync(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0]));
    const blocks = [
      link("/etc/hostname", "hostname"),
      link(join(box.workspace, "gone.md"), "gone.md"),
      link(binary, "tool.bin"),
    ];
    const r = await parity(
      "scripted/attachments",
      async ({ ctx, sessionId }) => {
        await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
      },
      { box },
    );
    const [outside, missing, elf, answer] = texts(r.live, "agent");
    expect(outside).toStartWith(
      "Did not read file:///etc/hostname: /etc/hostname is outside the session's directories",
    );
    expect(missing).toBe(`Did not read file://${join(box.workspace, "gone.md")}: the file does not exist.`);
    expect(elf).toBe(`Did not read ${binary}: it is an ELF executable.`);
    // The model is given the links as mentions only.
    expect(answer).toContain("I see no image.");
    expect(r.differences).toEqual([]);
  });

  test("the request after a reopen gives the file as it was read, though it changed since", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(chatKit));
    Object.assign(box.env, chatKit.env(server));
    const notes = join(box.workspace, "notes.md");
    writeFileSync(notes, NOTES);
    const blocks = [{ type: "text", text: "Summarize" } as ContentBlock, link(notes, "notes.md")];
    const live = await connectProcess(box.env);
    let sessionId = "";
    try {
      sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
      server.enqueue({ sse: chatKit.text("Friday.") });
      await live.ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
    } finally {
      await live.close();
    }
    const first = JSON.stringify(server.requests[0]?.body);
    expect(first).toContain(JSON.stringify(`<resource uri="${pathToFileURL(notes).href}">\n${NOTES}\n</resource>`));
    writeFileSync(notes, "# Notes\n\nChanged after the prompt.\n");
    const fresh = await connectProcess(box.env);
    try {
      await load(fresh.ctx, sessionId, box.workspace);
      server.enqueue({ sse: chatKit.text("Thanks.") });
      await prompt(fresh.ctx, sessionId, "Thanks");
    } finally {
      await fresh.close();
    }
    const after = JSON.stringify(server.requests[1]?.body);
    expect(after).toContain("The release is on Friday.");
    expect(after).not.toContain("Changed after the prompt.");
  });
});
