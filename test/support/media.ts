/** Images, PDFs and notebooks made for tests (with the libraries verbatim uses), and tiny committed ones. */
import { Jimp } from "../../src/lazy-sdks/image-codecs.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { simplePdf } from "./pdf-fixture.ts";

type Format = "image/png" | "image/jpeg" | "image/gif";

/** An image of `width`×`height` pixels, a gradient so that scaling shows, in the given format. */
export async function imageBytes(width: number, height: number, format: Format = "image/png"): Promise<Buffer> {
  const image = new Jimp({ width, height, color: 0xffffffff });
  image.scan(0, 0, width, height, (x, y, idx) => {
    image.bitmap.data[idx] = (x * 7) % 256;
    image.bitmap.data[idx + 1] = (y * 5) % 256;
    image.bitmap.data[idx + 2] = 128;
    image.bitmap.data[idx + 3] = 255;
  });
  return format === "image/jpeg" ? image.getBuffer(format, { quality: 90 }) : image.getBuffer(format);
}

/** A 6×4 lossless WebP (58 bytes), made once with jSquash's encoder. */
export const WEBP_6X4 = readFileSync(join(import.meta.dir, "..", "fixtures", "media", "six-by-four.webp"));

/** A PNG's signature and the start of its header, cut off: a corrupt image. */
export const TRUNCATED_PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48]);

/**
 * Files that take each library the agent ships to read (a WebP through the WebAssembly decoder, a
 * large PNG scaled and encoded again, a PDF, and pages of one copied into a PDF of their own), and
 * a string the model request holds when it was read.
 */
export async function shippedMedia(dir: string): Promise<{ path: string; pages?: string; expect: string }[]> {
  const webp = join(dir, "tiny.webp");
  writeFileSync(webp, WEBP_6X4);
  const large = join(dir, "large.png");
  writeFileSync(large, await imageBytes(1800, 100));
  const pdf = join(dir, "two-pages.pdf");
  writeFileSync(pdf, simplePdf(["First page", "Second page"], {}));
  const pages = join(dir, "three-pages.pdf");
  writeFileSync(pages, simplePdf(["One", "Two", "Three"], {}));
  return [
    { path: webp, expect: WEBP_6X4.toString("base64") },
    { path: large, expect: "scaled to PNG, 1568×87" },
    { path: pdf, expect: Buffer.from(simplePdf(["First page", "Second page"])).toString("base64") },
    { path: pages, pages: "2", expect: "pages 2 of 3" },
  ];
}

/** A notebook (nbformat 4.5) of a markdown cell and a code cell with a stream output and a PNG output. */
export function notebookText(png: Buffer): string {
  const nb = {
    cells: [
      { cell_type: "markdown", id: "intro", metadata: {}, source: ["# Sales\n", "By month."] },
      {
        cell_type: "code",
        execution_count: 3,
        id: "plot",
        metadata: {},
        outputs: [
          { name: "stdout", output_type: "stream", text: ["total 42\n"] },
          {
            data: { "image/png": png.toString("base64"), "text/plain": ["<Figure>"] },
            metadata: {},
            output_type: "display_data",
          },
        ],
        source: ["print('total', 42)\n", "plot()"],
      },
    ],
    metadata: { language_info: { name: "python" } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  return `${JSON.stringify(nb, null, 1)}\n`;
}
