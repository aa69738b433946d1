/**
 * The files a prompt links to (`resource_link` blocks with `file:` URIs), read when the prompt is
 * received so the model is given them as it would an embedded resource: a text file's text, an
 * image as an image. Every path goes through the confinement module; a link outside the
 * session's directories, missing, too large or of a kind the model cannot take is not read, and
 * says why. Links to anything but a file (https, a client's own scheme) are left as links.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { fileURLToPath } from "node:url";
import type { FactOf } from "../../journal/facts/index.ts";
import { closeFile, openForRead, readBytes, type OpenedFile } from "../confinement/open-file.ts";
import { fileKindOf } from "../tools/files/file-kinds.ts";
import { CorruptImage, formatBytes, prepareImage } from "../tools/files/image-file.ts";
import { pagesText, PdfProblem, readPdf } from "../tools/files/pdf-file.ts";
import { confine, PathError } from "../tools/paths.ts";
import type { ToolHost } from "../tools/tool.ts";

/** The largest linked text file given whole; a larger one is not read (the model can Read it in parts). */
export const MAX_LINKED_TEXT_BYTES = 256 * 1024;

/**
 * Says why a path may not be read, or undefined when it may: the seam where the session's
 * `Read(...)` deny rules (src/core/permissions) refuse a link, as they refuse a Read call.
 */
export type LinkReadCheck = (path: string) => string | undefined;

export type LinkRead = Omit<FactOf<"prompt_link_read">, "kind" | "turnId" | "messageId">;
type Outcome = Pick<LinkRead, "path" | "bytes" | "content" | "reason">;

/** Reads each file link of a prompt; resolves to one record per file link, in the prompt's order. */
export async function readPromptLinks(
  blocks: ContentBlock[],
  roots: string[],
  host: ToolHost,
  mayRead: LinkReadCheck = () => undefined,
): Promise<LinkRead[]> {
  const read: LinkRead[] = [];
  for (const [block, b] of blocks.entries()) {
    if (b.type !== "resource_link" || !b.uri.startsWith("file:")) continue;
    const outcome = await readLink(b.uri, roots, host, mayRead);
    read.push({ block, uri: b.uri, ...outcome, text: linkLine(b.uri, outcome) });
  }
  return read;
}

async function readLink(uri: string, roots: string[], host: ToolHost, mayRead: LinkReadCheck): Promise<Outcome> {
  let path: string;
  let file: OpenedFile;
  try {
    path = confine(fileURLToPath(uri), roots);
    const denied = mayRead(path);
    if (denied) return { path, reason: denied };
    file = openForRead(path, roots);
  } catch (error) {
    if (error instanceof PathError) return { reason: error.message };
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { reason: "the file does not exist" };
    return { reason: error instanceof Error ? error.message : String(error) };
  }
  try {
    return { path, bytes: file.size, ...(await contentOf(uri, path, file, host)) };
  } finally {
    closeFile(file);
  }
}

async function contentOf(
  uri: string,
  path: string,
  file: OpenedFile,
  host: ToolHost,
): Promise<{ content: ContentBlock } | { reason: string }> {
  const head = readBytes(file, 0, 8000);
  const kind = fileKindOf(head);
  if (kind?.kind === "image") {
    try {
      const image = await prepareImage(readBytes(file, 0, file.size), kind.format);
      return { content: { type: "image", data: image.data.toString("base64"), mimeType: image.sent.mimeType, uri } };
    } catch (error) {
      if (error instanceof CorruptImage) return { reason: `it is a corrupt image (${error.message})` };
      throw error;
    }
  }
  if (kind?.kind === "pdf") return pdfContent(uri, path, file);
  if (head.includes(0)) return { reason: `it is ${kind?.kind === "other-binary" ? kind.what : "a binary file"}` };
  if (file.size > MAX_LINKED_TEXT_BYTES) {
    return {
      reason: `it is ${formatBytes(file.size)}, more than the ${formatBytes(MAX_LINKED_TEXT_BYTES)} a linked file may be; Read can read it in parts`,
    };
  }
  const text = host.readTextFile ? await host.readTextFile(path) : readBytes(file, 0, file.size + 1).toString("utf8");
  return { content: { type: "resource", resource: { uri, text } } };
}

/**
 * A linked PDF's text, page by page, as Read gives a PDF on a wire without documents: a PDF Read
 * would refuse whole (more pages than it takes without `pages`, encrypted, broken) is not read,
 * saying why.
 */
async function pdfContent(
  uri: string,
  path: string,
  file: OpenedFile,
): Promise<{ content: ContentBlock } | { reason: string }> {
  try {
    const { pages } = await readPdf(path, readBytes(file, 0, file.size), undefined);
    return { content: { type: "resource", resource: { uri, mimeType: "text/plain", text: pagesText(pages) } } };
  } catch (error) {
    if (error instanceof PdfProblem)
      return { reason: `${error.message.replace(/\.$/, "")}; ask for it to be read with Read` };
    throw error;
  }
}

/** The line the client is shown for a link: that it was read for the model, or why not. */
function linkLine(uri: string, link: Outcome): string {
  const name = link.path ?? uri;
  if (link.content && link.bytes !== undefined)
    return `Read ${name} (${formatBytes(link.bytes)}) and gave it to the model with the prompt.`;
  return `Did not read ${name}: ${(link.reason ?? "unknown reason").replace(/\.$/, "")}.`;
}
