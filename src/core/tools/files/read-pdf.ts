/**
 * Read of a PDF: the model is given the pages asked for as a PDF document (a wire that takes no
 * documents gets their text instead, which is recorded with it), and the card says what was read.
 */
import { basename } from "node:path";
import { readBytes, type OpenedFile } from "../../confinement/open-file.ts";
import { failed, fenced, textContent, type ToolOutcome } from "../tool.ts";
import { formatBytes } from "./image-file.ts";
import { pagesText, PdfProblem, readPdf } from "./pdf-file.ts";
import { WHOLE_FILE_MAX_BYTES } from "./text-files.ts";

/** "1-3, 7": the pages read, as ranges. */
function ranges(numbers: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === (numbers[j] as number) + 1) j++;
    out.push(i === j ? `${numbers[i]}` : `${numbers[i]}-${numbers[j]}`);
    i = j + 1;
  }
  return out.join(", ");
}

export async function readPdfFile(path: string, file: OpenedFile, pages: string | undefined): Promise<ToolOutcome> {
  if (file.size > WHOLE_FILE_MAX_BYTES) {
    return failed(
      `${path} is a PDF of ${formatBytes(file.size)}, larger than the ${formatBytes(WHOLE_FILE_MAX_BYTES)} Read opens.`,
    );
  }
  let pdf: Awaited<ReturnType<typeof readPdf>>;
  try {
    pdf = await readPdf(path, readBytes(file, 0, file.size), pages);
  } catch (error) {
    if (error instanceof PdfProblem) return failed(error.message);
    throw error;
  }
  const whole = pdf.pages.length === pdf.count;
  const which = whole
    ? `all ${pdf.count} page${pdf.count === 1 ? "" : "s"}`
    : `pages ${ranges(pdf.pages.map((p) => p.number))} of ${pdf.count}`;
  const text = pagesText(pdf.pages);
  const sent = whole
    ? formatBytes(file.size)
    : `${formatBytes(pdf.document.length)} (those pages copied into a PDF of their own)`;
  return {
    status: "completed",
    content: [
      textContent(`Read PDF ${path} (${formatBytes(file.size)}): ${which}; sent ${sent}`),
      textContent(fenced(text)),
    ],
    rawOutput: {
      type: "pdf",
      pages: pdf.count,
      read: pdf.pages.map((p) => p.number),
      bytes: file.size,
      sent: pdf.document.length,
    },
    result: {
      text: `PDF ${path}, ${which}.`,
      isError: false,
      attachments: [
        {
          type: "document",
          data: Buffer.from(pdf.document).toString("base64"),
          mimeType: "application/pdf",
          name: basename(path),
          text,
        },
      ],
    },
  };
}
