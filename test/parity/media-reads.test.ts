/**
 * Reading images, PDFs and notebooks through the built agent on each wire: the model request holds
 * what was read as that wire takes it, a reopened session shows what was shown live, and the
 * request after a reopen equals the one a never-reloaded session sends.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { permissionOf } from "../support/cards.ts";
import { fixtureServer, type FixtureResponse, type FixtureServer } from "../support/fixture-server.ts";
import { imageBytes, notebookText, TRUNCATED_PNG } from "../support/media.ts";
import { simplePdf } from "../support/pdf-fixture.ts";
import { kits, modelRef, type Kit } from "../support/provider-kits.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { cards, parity } from "./harness.ts";

type Media = {
  broken: string;
  locked: string;
  image: string;
  imageData: string;
  notebook: string;
  plotData: string;
  pdf: string;
  pdfData: string;
};

async function mediaIn(box: Sandbox): Promise<Media> {
  const png = await imageBytes(32, 24);
  const image = join(box.workspace, "screenshot.png");
  writeFileSync(image, png);
  const plot = await imageBytes(12, 8);
  const notebook = join(box.workspace, "sales.ipynb");
  writeFileSync(notebook, notebookText(plot));
  const broken = join(box.workspace, "broken.png");
  writeFileSync(broken, TRUNCATED_PNG);
  const locked = join(box.workspace, "locked.pdf");
  writeFileSync(locked, simplePdf(["secret"], { encrypted: true }));
  const pdf = join(box.workspace, "spec.pdf");
  const pdfBytes = simplePdf(["The spec says ship on Friday", "Appendix"]);
  writeFileSync(pdf, pdfBytes);
  return {
    broken,
    locked,
    image,
    imageData: png.toString("base64"),
    notebook,
    plotData: plot.toString("base64"),
    pdf,
    pdfData: Buffer.from(pdfBytes).toString("base64"),
  };
}

function boxFor(kit: Kit): { server: FixtureServer; box: Sandbox } {
  const server = fixtureServer();
  const box = sandbox(modelRef(kit));
  Object.assign(box.env, kit.env(server));
  return { server, box };
}

/** The step that reads every kind, a notebook edit, and the answer after them. */
const readsThenAnswer = (kit: Kit, media: Media): FixtureResponse[] => [
  {
    sse: kit.calls(
      [
        { id: "call_image", name: "Read", input: { file_path: media.image } },
        { id: "call_notebook", name: "Read", input: { file_path: media.notebook } },
        { id: "call_pdf", name: "Read", input: { file_path: media.pdf } },
        { id: "call_broken", name: "Read", input: { file_path: media.broken } },
        { id: "call_locked", name: "Read", input: { file_path: media.locked } },
      ],
      "Looking. ",
    ),
  },
  {
    sse: kit.calls([
      {
        id: "call_cell",
        name: "NotebookEdit",
        input: { notebook_path: media.notebook, cell_id: "intro", new_source: "# Sales by month" },
      },
    ]),
  },
  { sse: kit.text("A gradient.") },
];

type Json = Record<string, unknown>;
const records = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const unData = (url: unknown) => String(url).replace(/^data:image\/png;base64,/, "");

/** Where each wire puts a PDF a call read: its own document block, a file item, or the text taken out of it. */
function pdfSent(kit: Kit, body: Json): string | undefined {
  if (kit.kind === "anthropic") {
    const results = records(body.messages)
      .flatMap((m) => records(m.content))
      .filter((b) => b.type === "tool_result");
    const doc = results.flatMap((r) => records(r.content)).find((b) => b.type === "document");
    return (doc?.source as Json | undefined)?.data as string | undefined;
  }
  if (kit.kind === "openai") {
    const outputs = records(body.input).filter((i) => i.type === "function_call_output");
    const file = outputs.flatMap((o) => records(o.output)).find((b) => b.type === "input_file");
    return String(file?.file_data).replace(/^data:application\/pdf;base64,/, "");
  }
  const result = records(body.messages).find((m) => m.role === "tool" && m.tool_call_id === "call_pdf");
  return result?.content as string | undefined;
}

/** Where each wire puts the images calls read: in the result where it can, else beside the results. */
function imagesSent(kit: Kit, body: Json): string[] {
  if (kit.kind === "anthropic") {
    const results = records(body.messages)
      .flatMap((m) => records(m.content))
      .filter((b) => b.type === "tool_result");
    const images = results.flatMap((r) => records(r.content)).filter((b) => b.type === "image");
    return images.map((image) => (image.source as Json).data as string);
  }
  if (kit.kind === "openai") {
    const outputs = records(body.input).filter((i) => i.type === "function_call_output");
    const images = outputs.flatMap((o) => records(o.output)).filter((b) => b.type === "input_image");
    return images.map((b) => unData(b.image_url));
  }
  const messages = records(body.messages);
  // The step's results, then one user message with the images.
  const firstResult = messages.findIndex((m) => m.role === "tool");
  const results = ["call_image", "call_notebook", "call_pdf", "call_broken", "call_locked"];
  expect(messages.slice(firstResult, firstResult + results.length).map((m) => m.tool_call_id)).toEqual(results);
  const beside = messages[firstResult + results.length];
  expect(beside?.role).toBe("user");
  const parts = records(beside?.content).filter((p) => p.type === "image_url");
  return parts.map((p) => unData((p.image_url as Json).url));
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
    const [imageCard, notebookCard, pdfCard, brokenCard, lockedCard, editCard] = cards(r.live);
    expect([brokenCard?.status, lockedCard?.status]).toEqual(["failed", "failed"]);
    const sent = JSON.stringify(server.requests[1]?.body);
    expect(sent).toContain(`${media.broken} is a corrupt PNG image`);
    expect(sent).toContain(`${media.locked} cannot be read: it is encrypted (password-protected)`);
    expect(pdfCard).toMatchObject({ name: "Read", status: "completed" });
    const pdf = pdfSent(kit, server.requests[1]?.body as Json);
    if (kit.kind === "openai-chat") expect(pdf).toContain('<page number="1">\nThe spec says ship on Friday\n</page>');
    else expect(pdf).toBe(media.pdfData);
    expect(imageCard).toMatchObject({ name: "Read", status: "completed" });
    expect(JSON.stringify(imageCard?.content)).toContain(media.imageData);
    expect(JSON.stringify(notebookCard?.content)).toContain(media.plotData);
    expect(editCard).toMatchObject({ name: "NotebookEdit", kind: "edit", status: "completed" });
    // Edit's gate: in the default mode the edit was asked about (and allowed once).
    expect(permissionOf(editCard)?.outcome).toMatchObject({ outcome: "selected", kind: "allow_once" });
    expect(editCard?.content?.[0]).toMatchObject({ type: "diff", path: media.notebook });
    expect(readFileSync(media.notebook, "utf8")).toContain('"# Sales by month"');
    expect(imagesSent(kit, server.requests[1]?.body as Json)).toEqual([media.imageData, media.plotData]);
    expect(JSON.stringify(server.requests[1]?.body)).toContain('<cell id=\\"plot\\" type=\\"code\\"');
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
      await mediaIn(box); // the files as the first session found them (it edited the notebook)
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
    expect(imagesSent(kit, neverReloaded as Json)).toEqual([media.imageData, media.plotData]);
  });
});
