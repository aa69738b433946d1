/**
 * A PDF as Read gives it: its page count, the pages asked for as a PDF of their own (the whole
 * file when all are), and their text, taken out with the PDF library (src/lazy-sdks/pdf-reader.ts,
 * loaded by the first PDF read). An encrypted or broken file is a PdfProblem saying so.
 */

/** The most pages one read takes; a PDF longer than WITHOUT_PAGES_MAX needs `pages`. */
export const PAGES_MAX = 20;
export const WITHOUT_PAGES_MAX = 10;

export class PdfProblem extends Error {}

type Reader = typeof import("../../../lazy-sdks/pdf-reader.ts");
let reader: Promise<Reader> | undefined;
const loadReader = () => (reader ??= import("../../../lazy-sdks/pdf-reader.ts"));

export type PdfPages = {
  count: number;
  pages: { number: number; text: string }[];
  /** The PDF the model is given: the file itself, or the pages asked for copied into one. */
  document: Uint8Array;
};

/**
 * The pages a `pages` value names ("3", "1-5", "1-3,8"), in order, each once; a PdfProblem (for
 * the model to fix its call) when it is malformed, past the document's end or more than PAGES_MAX.
 */
export function pageNumbers(spec: string, count: number): number[] {
  const numbers = new Set<number>();
  for (const part of spec.split(",").map((p) => p.trim())) {
    const range = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!range) throw new PdfProblem(`pages "${spec}" is not a page or range of pages such as "3", "1-5" or "1-3,8".`);
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (from < 1 || to < from) throw new PdfProblem(`pages "${part}" is not a range of pages (they count from 1).`);
    if (to > count)
      throw new PdfProblem(`The PDF has ${count} page${count === 1 ? "" : "s"}; pages "${part}" goes past its end.`);
    // A range is counted before it is listed: "1-100000" is refused without a set of a hundred thousand.
    if (to - from + 1 > PAGES_MAX) throw tooMany(spec, `${to - from + 1}`);
    const named = new Set(numbers);
    for (let n = from; n <= to; n++) named.add(n);
    if (named.size > PAGES_MAX) throw tooMany(spec, `more than ${PAGES_MAX}`);
    for (const n of named) numbers.add(n);
  }
  return [...numbers].sort((a, b) => a - b);
}

const tooMany = (spec: string, count: string) =>
  new PdfProblem(`pages "${spec}" names ${count} pages; Read takes at most ${PAGES_MAX} pages a call.`);

/** pdf.js's own names for a file it cannot open. */
const why = (error: unknown): string => {
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  if (name === "PasswordException") return "it is encrypted (password-protected), so its pages cannot be read";
  return `it is broken or not a PDF (${message})`;
};

/**
 * Opens a PDF and takes out the text of the pages `spec` names (all of them without it). With no
 * spec, a PDF of more than WITHOUT_PAGES_MAX pages is a PdfProblem naming its page count.
 */
export async function readPdf(path: string, bytes: Buffer, spec: string | undefined): Promise<PdfPages> {
  const lib = await loadReader();
  let document: Awaited<ReturnType<Reader["getDocumentProxy"]>>;
  try {
    // Copies, here and below: pdf.js takes over the buffer it is given.
    document = await lib.getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    throw new PdfProblem(`${path} cannot be read: ${why(error)}.`);
  }
  try {
    const count = document.numPages;
    if (spec === undefined && count > WITHOUT_PAGES_MAX) {
      throw new PdfProblem(
        `${path} is a PDF of ${count} pages, more than the ${WITHOUT_PAGES_MAX} Read takes without pages. Give pages (at most ${PAGES_MAX} a call), such as pages: "1-${Math.min(count, PAGES_MAX)}".`,
      );
    }
    const numbers = spec === undefined ? Array.from({ length: count }, (_, i) => i + 1) : pageNumbers(spec, count);
    const pages: PdfPages["pages"] = [];
    for (const number of numbers) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : ""))
        .join("")
        .trim();
      pages.push({ number, text });
    }
    const whole = numbers.length === count;
    const part = whole
      ? new Uint8Array(bytes)
      : await document.extractPages([{ document: new Uint8Array(bytes), includePages: numbers.map((n) => n - 1) }]);
    return { count, pages, document: part };
  } catch (error) {
    if (error instanceof PdfProblem) throw error;
    throw new PdfProblem(`${path} cannot be read: ${why(error)}.`);
  } finally {
    await document.loadingTask.destroy();
  }
}

/** The pages' text as the model reads it, each page marked with its number. */
export function pagesText(pages: PdfPages["pages"]): string {
  return pages
    .map((p) => `<page number="${p.number}">\n${p.text || "(no text: this page may be a scanned image)"}\n</page>`)
    .join("\n");
}
