/** Read of a PDF: the document and its text, `pages`, the page limits, and the files it cannot open. */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTool } from "../../src/core/tools/read.ts";
import { simplePdf } from "../support/pdf-fixture.ts";
import { runTool, shown } from "../support/tool-run.ts";
import { sandbox } from "../support/workspace.ts";

const pagesOf = (n: number) => Array.from({ length: n }, (_, i) => `Page ${i + 1} text`);

async function read(pdf: Uint8Array, input: Record<string, unknown> = {}) {
  const ws = sandbox().workspace;
  const path = join(ws, "spec.pdf");
  writeFileSync(path, pdf);
  return { path, outcome: await runTool(readTool, { file_path: path, ...input }, { cwd: ws }) };
}

type Document = { type: "document"; data: string; name: string; text: string };
const documentOf = (outcome: Awaited<ReturnType<typeof read>>["outcome"]) =>
  outcome.result.attachments?.[0] as Document | undefined;

describe("Read of a PDF", () => {
  test("a short PDF is given whole as a document, with the text of its pages", async () => {
    const pdf = simplePdf(["Hello from page one", "And page two"]);
    const { outcome, path } = await read(pdf);
    expect(outcome.result.text).toBe(`PDF ${path}, all 2 pages.`);
    const doc = documentOf(outcome);
    expect(doc?.data).toBe(Buffer.from(pdf).toString("base64"));
    expect(doc?.name).toBe("spec.pdf");
    expect(doc?.text).toBe('<page number="1">\nHello from page one\n</page>\n<page number="2">\nAnd page two\n</page>');
    expect(shown(outcome)).toStartWith(`Read PDF ${path} (${pdf.length} bytes): all 2 pages; sent ${pdf.length} bytes`);
  });

  test("pages gives only those pages, copied into a PDF of their own", async () => {
    const { outcome } = await read(simplePdf(pagesOf(30)), { pages: "3-4,9" });
    expect(outcome.result.text).toEndWith("pages 3-4, 9 of 30.");
    const doc = documentOf(outcome);
    expect(doc?.text).toBe(
      '<page number="3">\nPage 3 text\n</page>\n<page number="4">\nPage 4 text\n</page>\n<page number="9">\nPage 9 text\n</page>',
    );
    // The document sent is a three-page PDF, not the thirty-page file.
    const sent = await read(Buffer.from(doc?.data ?? "", "base64"));
    expect(sent.outcome.result.text).toEndWith("all 3 pages.");
    expect(documentOf(sent.outcome)?.text).toContain("Page 9 text");
  });

  test("a PDF of more than 10 pages without pages is refused, naming its page count", async () => {
    const { outcome, path } = await read(simplePdf(pagesOf(11)));
    expect(outcome.result).toEqual({
      text: `${path} is a PDF of 11 pages, more than the 10 Read takes without pages. Give pages (at most 20 a call), such as pages: "1-11".`,
      isError: true,
    });
  });

  test("more than 20 pages a call, or pages past the end, is an error naming what to fix", async () => {
    const many = await read(simplePdf(pagesOf(30)), { pages: "1-21" });
    expect(many.outcome.result.text).toBe('pages "1-21" names 21 pages; Read takes at most 20 pages a call.');
    const past = await read(simplePdf(pagesOf(3)), { pages: "2-5" });
    expect(past.outcome.result.text).toBe('The PDF has 3 pages; pages "2-5" goes past its end.');
    const malformed = await read(simplePdf(pagesOf(3)), { pages: "first" });
    expect(malformed.outcome.result.text).toStartWith('pages "first" is not a page or range of pages');
  });

  test("an encrypted PDF is a clear error", async () => {
    const { outcome, path } = await read(simplePdf(["secret"], { encrypted: true }));
    expect(outcome.result).toEqual({
      text: `${path} cannot be read: it is encrypted (password-protected), so its pages cannot be read.`,
      isError: true,
    });
  });

  test("a broken PDF is a clear error", async () => {
    const { outcome, path } = await read(new TextEncoder().encode("%PDF-1.7\nthis is not the rest of a PDF\n"));
    expect(outcome.result.isError).toBe(true);
    expect(outcome.result.text).toStartWith(`${path} cannot be read: it is broken or not a PDF (`);
  });
});
