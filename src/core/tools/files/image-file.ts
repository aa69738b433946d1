/**
 * An image as the model is given it: decoded (so a corrupt file is told apart from a good one),
 * and scaled and re-encoded only when it is past what the providers take. The image library
 * (src/lazy-sdks/image-codecs.ts) is loaded by the first image read.
 *
 * One image is recorded per read and sent to whichever model the session uses from then on (a
 * reload or a model change never encodes it again), so it fits every wire's limits: at most
 * MAX_EDGE pixels on its long edge (Anthropic's; OpenAI scales to 2048 and then 768 on the short
 * edge, Chat Completions servers at most that) and MAX_BYTES of file (5 MB once base64-encoded,
 * Anthropic's limit on Bedrock and Vertex, the strictest).
 */
import { imageMimeType, type ImageFormat } from "./file-kinds.ts";

export const MAX_EDGE = 1568;
export const MAX_BYTES = 3_750_000;

/** What an image is: its format, size in bytes and pixels. */
export type ImageFacts = { mimeType: string; bytes: number; width: number; height: number };

export type PreparedImage = { file: ImageFacts; sent: ImageFacts; data: Buffer };

/** The file could not be decoded as the image its signature says it is. */
export class CorruptImage extends Error {}

type Codecs = typeof import("../../../lazy-sdks/image-codecs.ts");
type Picture = InstanceType<Codecs["Jimp"]>;

let codecs: Promise<Codecs> | undefined;
const loadCodecs = () => (codecs ??= import("../../../lazy-sdks/image-codecs.ts"));

/** Decodes an image; a file that does not decode is a CorruptImage. */
async function decode(lib: Codecs, bytes: Buffer, format: ImageFormat): Promise<Picture> {
  try {
    if (format !== "webp") return (await lib.Jimp.fromBuffer(bytes)) as Picture;
    const pixels = await lib.webpPixels(bytes);
    return lib.Jimp.fromBitmap({ data: Buffer.from(pixels.data.buffer), width: pixels.width, height: pixels.height });
  } catch (error) {
    throw new CorruptImage(error instanceof Error ? error.message : String(error));
  }
}

/** Encodes a picture small enough: PNG where it keeps the image lossless within the limit, else JPEG of falling quality. */
async function encode(picture: Picture, preferPng: boolean): Promise<{ data: Buffer; mimeType: string }> {
  if (preferPng) {
    const png = await picture.getBuffer("image/png");
    if (png.length <= MAX_BYTES) return { data: png, mimeType: "image/png" };
  }
  for (;;) {
    for (const quality of [85, 70, 55]) {
      const jpeg = await picture.getBuffer("image/jpeg", { quality });
      if (jpeg.length <= MAX_BYTES) return { data: jpeg, mimeType: "image/jpeg" };
    }
    picture.resize({ w: Math.max(1, Math.round(picture.width * 0.75)) });
  }
}

/**
 * The image to send for a file's bytes: the file itself when it fits the limits, else scaled to
 * fit MAX_EDGE and encoded to fit MAX_BYTES. Rejects with CorruptImage on a file that does not decode.
 */
export async function prepareImage(bytes: Buffer, format: ImageFormat): Promise<PreparedImage> {
  const lib = await loadCodecs();
  const picture = await decode(lib, bytes, format);
  const mimeType = imageMimeType(format);
  const file = { mimeType, bytes: bytes.length, width: picture.width, height: picture.height };
  if (picture.width <= MAX_EDGE && picture.height <= MAX_EDGE && bytes.length <= MAX_BYTES) {
    return { file, sent: file, data: bytes };
  }
  if (picture.width > MAX_EDGE || picture.height > MAX_EDGE) picture.scaleToFit({ w: MAX_EDGE, h: MAX_EDGE });
  // Photographs (JPEG) stay JPEG; screenshots and drawings (PNG, GIF, WebP) stay lossless where they can.
  const encoded = await encode(picture, format !== "jpeg");
  const sent = { mimeType: encoded.mimeType, bytes: encoded.data.length, width: picture.width, height: picture.height };
  return { file, sent, data: encoded.data };
}

const IMAGE_NAMES: Record<string, string> = {
  "image/png": "PNG",
  "image/jpeg": "JPEG",
  "image/gif": "GIF",
  "image/webp": "WebP",
};

/** An image's size for people: "PNG, 3000×2000, 1.2 MB". */
export function describeImage(image: ImageFacts): string {
  return `${IMAGE_NAMES[image.mimeType] ?? image.mimeType}, ${image.width}×${image.height}, ${formatBytes(image.bytes)}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
