/** Read of images and other binary files: what the model is given, what the card shows, what is refused. */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_EDGE } from "../../src/core/tools/files/image-file.ts";
import { readTool } from "../../src/core/tools/read.ts";
import { imageBytes, TRUNCATED_PNG, WEBP_6X4 } from "../support/media.ts";
import { runTool, shown } from "../support/tool-run.ts";
import { sandbox } from "../support/workspace.ts";

const fileIn = (bytes: Buffer, name: string) => {
  const ws = sandbox().workspace;
  const path = join(ws, name);
  writeFileSync(path, bytes);
  return { ws, path };
};

const read = (bytes: Buffer, name: string) => {
  const { ws, path } = fileIn(bytes, name);
  return runTool(readTool, { file_path: path }, { cwd: ws }).then((outcome) => ({ outcome, path }));
};

describe("Read of an image", () => {
  test("a small PNG is given to the model as it is, and the card shows it with its size", async () => {
    const png = await imageBytes(40, 30);
    const { outcome, path } = await read(png, "shot.png");
    expect(outcome.status).toBe("completed");
    expect(outcome.result.attachments).toEqual([
      { type: "image", data: png.toString("base64"), mimeType: "image/png" },
    ]);
    expect(outcome.result.text).toBe(`Image ${path} (PNG, 40×30, ${png.length} bytes).`);
    expect(shown(outcome).trim()).toBe(`Read image ${path} (PNG, 40×30, ${png.length} bytes); sent as it is`);
    expect(outcome.content[1]).toEqual({
      type: "content",
      content: { type: "image", data: png.toString("base64"), mimeType: "image/png" },
    });
  });

  test("an image past the providers' limits is scaled to fit, and the card says what was sent", async () => {
    const { outcome } = await read(await imageBytes(3000, 2000), "big.png");
    const sent = outcome.rawOutput as { file: { width: number }; sent: { width: number; height: number } };
    expect(sent.file.width).toBe(3000);
    expect(sent.sent).toMatchObject({ width: MAX_EDGE, height: Math.round((2000 * MAX_EDGE) / 3000) });
    expect(outcome.result.text).toContain(`scaled to PNG, ${MAX_EDGE}×1045`);
    expect(shown(outcome)).toContain(`; sent PNG, ${MAX_EDGE}×1045`);
  });

  test("JPEG, GIF and WebP are read as images of their own type", async () => {
    const jpeg = await read(await imageBytes(20, 10, "image/jpeg"), "photo.jpg");
    const gif = await read(await imageBytes(20, 10, "image/gif"), "anim.gif");
    const webp = await read(WEBP_6X4, "tiny.webp");
    expect(jpeg.outcome.result.attachments?.[0]).toMatchObject({ type: "image", mimeType: "image/jpeg" });
    expect(gif.outcome.result.attachments?.[0]).toMatchObject({ type: "image", mimeType: "image/gif" });
    expect(webp.outcome.result.attachments?.[0]).toMatchObject({ type: "image", mimeType: "image/webp" });
    expect(webp.outcome.result.text).toContain("(WebP, 6×4, 58 bytes)");
  });

  test("a corrupt image is refused saying so", async () => {
    const { outcome, path } = await read(TRUNCATED_PNG, "broken.png");
    expect(outcome.status).toBe("failed");
    expect(outcome.result.text).toStartWith(`${path} is a corrupt PNG image: it could not be decoded`);
  });

  test("a file named as an image whose content is no image is a corrupt image", async () => {
    const { outcome, path } = await read(Buffer.from([1, 2, 0, 3, 4]), "fake.jpg");
    expect(outcome.result.text).toStartWith(`${path} is a corrupt JPEG image`);
  });
});

describe("Read of other binary files", () => {
  test("an archive is refused naming what it is", async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(20)]);
    const { outcome, path } = await read(zip, "bundle.zip");
    expect(outcome.result).toEqual({
      text: `${path} is a ZIP archive (24 bytes); Read shows text files, images, PDFs and notebooks.`,
      isError: true,
    });
  });

  test("an executable is refused naming what it is", async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(57)]);
    const { outcome } = await read(elf, "tool");
    expect(outcome.result.text).toContain("is an ELF executable (64 bytes)");
  });

  test("a binary file of no known kind is refused as a binary file", async () => {
    const { outcome } = await read(Buffer.from([9, 0, 9, 0]), "data.bin");
    expect(outcome.result.text).toContain("is a binary file (4 bytes)");
  });
});
