/**
 * Reading images, PDFs and notebooks through the built agent on each wire: the model request holds
 * what was read as that wire takes it, a reopened session shows what was shown live, and the
 * request after a reopen equals the one a never-reloaded session sends.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { fixtureServer, type FixtureResponse, type FixtureServer } from "../support/fixture-server.ts";
import { imageBytes } from "../support/media.ts";
import { kits, modelRef, type Kit } from "../support/provider-kits.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { cards, parity } from "./harness.ts";

type Media = { image: string; imageData: string };

async function mediaIn(box: Sandbox): Promise<Media> {
  const png = await imageBytes(32, 24);
  const image = join(box.workspace, "screenshot.png");
  writeFileSync(image, png);
  return { image, imageData: png.toString("base64") };
}

function boxFor(kit: Kit): { server: FixtureServer; box: Sandbox } {
  const server = fixtureServer();
  const box = sandbox(modelRef(kit));
  Object.assign(box.env, kit.env(server));
  return { server, box };
}

/** The step that reads every kind, and the answer after it. */
const readsThenAnswer = (kit: Kit, media: Media): FixtureResponse[] => [
  { sse: kit.calls([{ id: "call_image", name: "Read", input: { file_path: media.image } }], "Looking. ") },
  { sse: kit.text("A gradient.") },
];

type Json = Record<string, unknown>;
const records = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** Where each wire puts an image a call read: in the result where it can, else beside it. */
function imageSent(kit: Kit, body: Json): string | undefined {
  if (kit.kind === "anthropic") {
    const results = records(body.messages)
      .flatMap((m) => records(m.content))
      .filter((b) => b.type === "tool_result");
    const image = results.flatMap((r) => records(r.content)).find((b) => b.type === "image");
    return (image?.source as Json | undefined)?.data as string | undefined;
  }
  if (kit.kind === "openai") {
    const outputs = records(body.input).filter((i) => i.type === "function_call_output");
    const image = outputs.flatMap((o) => records(o.output)).find((b) => b.type === "input_image");
    return (image?.image_url as string | undefined)?.replace(/^data:image\/png;base64,/, "");
  }
  const messages = records(body.messages);
  const afterResults = messages.findIndex((m) => m.role === "tool") + 1;
  const beside = messages[afterResults];
  expect(beside?.role).toBe("user");
  const part = records(beside?.content).find((p) => p.type === "image_url");
  return ((part?.image_url as Json | undefined)?.url as string | undefined)?.replace(/^data:image\/png;base64,/, "");
}

describe.each(kits)("$kind: reading images, PDFs and notebooks", (kit) => {
  test("the model is given each as the wire takes it, and a reopened session shows what was shown live", async () => {
    const { server, box } = boxFor(kit);
    const media = await mediaIn(box);
    server.enqueue(...readsThenAnswer(kit, media));
    const r = await parity(
      modelRef(kit),
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "What do these files show?");
      },
      { box },
    );
    expect(r.differences).toEqual([]);
    const [imageCard] = cards(r.live);
    expect(imageCard).toMatchObject({ name: "Read", status: "completed" });
    expect(JSON.stringify(imageCard?.content)).toContain(media.imageData);
    expect(imageSent(kit, server.requests[1]?.body as Json)).toBe(media.imageData);
  });

  test("the next request after a reopen equals the one a never-reloaded session sends", async () => {
    const { server, box } = boxFor(kit);
    const media = await mediaIn(box);
    const thanks = (): FixtureResponse => ({ sse: kit.text("You're welcome.") });
    const live = await connectProcess(box.env);
    let reopened = "";
    let neverReloaded: unknown;
    try {
      const kept = (await newSession(live.ctx, box.workspace)).sessionId;
      server.enqueue(...readsThenAnswer(kit, media), thanks());
      await prompt(live.ctx, kept, "What do these files show?");
      await prompt(live.ctx, kept, "Thanks");
      neverReloaded = server.requests.at(-1)?.body;
      reopened = (await newSession(live.ctx, box.workspace)).sessionId;
      server.enqueue(...readsThenAnswer(kit, media));
      await prompt(live.ctx, reopened, "What do these files show?");
    } finally {
      await live.close();
    }
    const fresh = await connectProcess(box.env);
    try {
      await load(fresh.ctx, reopened, box.workspace);
      server.enqueue(thanks());
      expect((await prompt(fresh.ctx, reopened, "Thanks")).stopReason).toBe("end_turn");
    } finally {
      await fresh.close();
    }
    expect(server.requests.at(-1)?.body).toEqual(neverReloaded);
    expect(imageSent(kit, neverReloaded as Json)).toBe(media.imageData);
  });
});
