/**
 * Read of an image: the model is given the image (scaled to the providers' limits when it is past
 * them), the card shows what was read and what was sent, and the image itself.
 */
import { readBytes, type OpenedFile } from "../../confinement/open-file.ts";
import { failed, textContent, type ToolOutcome } from "../tool.ts";
import type { ImageFormat } from "./file-kinds.ts";
import { CorruptImage, describeImage, formatBytes, prepareImage } from "./image-file.ts";
import { WHOLE_FILE_MAX_BYTES } from "./text-files.ts";

const FORMAT_NAMES: Record<ImageFormat, string> = { png: "PNG", jpeg: "JPEG", gif: "GIF", webp: "WebP" };

export async function readImage(path: string, file: OpenedFile, format: ImageFormat): Promise<ToolOutcome> {
  if (file.size > WHOLE_FILE_MAX_BYTES) {
    return failed(
      `${path} is a ${FORMAT_NAMES[format]} image of ${formatBytes(file.size)}, larger than the ${formatBytes(WHOLE_FILE_MAX_BYTES)} Read opens.`,
    );
  }
  let image: Awaited<ReturnType<typeof prepareImage>>;
  try {
    image = await prepareImage(readBytes(file, 0, file.size), format);
  } catch (error) {
    if (!(error instanceof CorruptImage)) throw error;
    return corruptImage(path, format, error.message);
  }
  const data = image.data.toString("base64");
  const scaled = image.sent !== image.file;
  const line = scaled
    ? `Read image ${path} (${describeImage(image.file)}); sent ${describeImage(image.sent)}`
    : `Read image ${path} (${describeImage(image.file)}); sent as it is`;
  const modelText = scaled
    ? `Image ${path} (${describeImage(image.file)}), scaled to ${describeImage(image.sent)} to fit the model's limits.`
    : `Image ${path} (${describeImage(image.file)}).`;
  return {
    status: "completed",
    content: [textContent(line), { type: "content", content: { type: "image", data, mimeType: image.sent.mimeType } }],
    rawOutput: { type: "image", file: image.file, sent: image.sent },
    result: { text: modelText, isError: false, attachments: [{ type: "image", data, mimeType: image.sent.mimeType }] },
  };
}

/** A file that says it is an image (by its signature or its name) and does not decode. */
export function corruptImage(path: string, format: ImageFormat, why: string): ToolOutcome {
  return failed(`${path} is a corrupt ${FORMAT_NAMES[format]} image: it could not be decoded (${why}).`);
}
