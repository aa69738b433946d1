/**
 * Read of a Jupyter notebook: the model is given its cells (source and outputs) as text and the
 * images its outputs hold as images, instead of the raw JSON. What was read is recorded as seen,
 * so NotebookEdit can refuse a notebook that changed since.
 */
import { readBytes, type OpenedFile } from "../../confinement/open-file.ts";
import type { ModelAttachment } from "../../../journal/facts/index.ts";
import { failed, fenced, textContent, type ToolHost, type ToolOutcome } from "../tool.ts";
import { imageFormatOf } from "./file-kinds.ts";
import { CorruptImage, prepareImage } from "./image-file.ts";
import { NotebookProblem, parseNotebook, renderNotebook, type NotebookImage } from "./notebook.ts";
import { sha256, WHOLE_FILE_MAX_BYTES } from "./text-files.ts";

/** The most text a notebook read gives the model; past it the read stops with a note. */
const MAX_CHARS = 100_000;

export async function readNotebook(path: string, file: OpenedFile, host: ToolHost): Promise<ToolOutcome> {
  if (file.size > WHOLE_FILE_MAX_BYTES) {
    return failed(
      `${path} is a notebook of ${file.size} bytes, larger than the ${WHOLE_FILE_MAX_BYTES} bytes Read opens.`,
    );
  }
  const text = host.readTextFile ? await host.readTextFile(path) : readBytes(file, 0, file.size + 1).toString("utf8");
  let rendered: ReturnType<typeof renderNotebook>;
  try {
    rendered = renderNotebook(parseNotebook(path, text));
  } catch (error) {
    if (error instanceof NotebookProblem) return failed(error.message);
    throw error;
  }
  const shown =
    rendered.text.length > MAX_CHARS
      ? `${rendered.text.slice(0, MAX_CHARS)}\n(The notebook's text was cut at ${MAX_CHARS} characters.)`
      : rendered.text;
  const images = await outputImages(rendered.images);
  const skipped = rendered.images.length - images.length;
  const note = skipped
    ? `\n(${skipped} output image${skipped === 1 ? "" : "s"} could not be decoded and ${skipped === 1 ? "is" : "are"} left out.)`
    : "";
  return {
    status: "completed",
    content: [
      textContent(fenced(shown) + note),
      ...images.map((image) => ({ type: "content" as const, content: { type: "image" as const, ...image } })),
    ],
    rawOutput: { type: "notebook", cells: rendered.cells, images: images.length },
    result: {
      text: `Notebook ${path}:\n${shown}${note}`,
      isError: false,
      ...(images.length ? { attachments: images.map((image): ModelAttachment => ({ type: "image", ...image })) } : {}),
    },
    seen: [{ path, sha256: sha256(text) }],
  };
}

/** The output images as sent (scaled to the models' limits where they are past them); one that does not decode is left out. */
async function outputImages(images: NotebookImage[]): Promise<{ data: string; mimeType: string }[]> {
  const sent: { data: string; mimeType: string }[] = [];
  for (const image of images) {
    const bytes = Buffer.from(image.data, "base64");
    const format = imageFormatOf(bytes);
    if (!format) continue;
    try {
      const prepared = await prepareImage(bytes, format);
      sent.push({ data: prepared.data.toString("base64"), mimeType: prepared.sent.mimeType });
    } catch (error) {
      if (!(error instanceof CorruptImage)) throw error;
    }
  }
  return sent;
}
