/**
 * The PDF library Read uses: unpdf (Mozilla's pdf.js built to run without a browser or a worker),
 * to count a PDF's pages and take out their text. Loaded by the first Read of a PDF: most
 * sessions read none. The build (`scripts/build.ts`) bundles this module apart.
 */
export { extractText, getDocumentProxy } from "unpdf";
