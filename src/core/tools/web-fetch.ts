import { z } from "zod";
import { capText } from "./shell/output-buffer.ts";
import { failed, textContent, type Tool } from "./tool.ts";
import { htmlToText } from "./web/html-to-text.ts";

const input = z.lazy(() =>
  z.object({
    url: z.string().describe("The URL to fetch (http or https)"),
    prompt: z.string().describe("What to look for in the page"),
  }),
);
type Input = z.infer<typeof input>;

/** The most bytes downloaded, and the most text returned to the model. */
const FETCH_MAX_BYTES = 5 * 1024 * 1024;
export const FETCH_MAX_CHARS = 50_000;
const FETCH_TIMEOUT_MS = 30_000;
const CARD_CHARS = 2_000;

/** Fetches a URL and returns its text (HTML as readable text), size-capped. */
export const webFetchTool: Tool<Input> = {
  name: "WebFetch",
  description:
    "Fetches a URL (http or https) and returns its content as text: HTML is turned into readable text, other text is returned as is. " +
    `At most ${FETCH_MAX_CHARS} characters are returned. prompt says what you are looking for; read the returned text with it in mind.`,
  input,
  kind: "fetch",
  access: "network",
  title: (i) => `Fetch ${i.url}`,
  locations: () => [],
  ruleScope: (i) => hostOf(i.url),
  async run(i, ctx) {
    let url: URL;
    try {
      url = new URL(i.url);
    } catch {
      return failed(`"${i.url}" is not a valid URL. Give a full URL such as https://example.com/page.`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return failed(`Only http and https URLs can be fetched, not ${url.protocol}`);
    const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetch(url, {
        signal: AbortSignal.any([ctx.signal, timeout]),
        redirect: "follow",
        headers: { accept: "text/html,text/plain,application/json,*/*;q=0.5" },
      });
    } catch (error) {
      if (ctx.signal.aborted) return failed("The fetch was cancelled.");
      if (timeout.aborted) return failed(`Fetching ${url.href} timed out after ${FETCH_TIMEOUT_MS / 1000} s.`);
      return failed(`Could not fetch ${url.href}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const type = response.headers.get("content-type") ?? "";
    const { bytes, cut } = await readCapped(response, FETCH_MAX_BYTES).catch(() => ({
      bytes: new Uint8Array(),
      cut: false,
    }));
    if (!response.ok) {
      return failed(`Fetching ${url.href} failed with HTTP ${response.status} ${response.statusText}.`);
    }
    if (!/^(text\/|application\/(json|xml|xhtml\+xml|javascript)|$)/i.test(type)) {
      return failed(`${url.href} is ${type}, not text; it cannot be read as a page.`);
    }
    const raw = new TextDecoder().decode(bytes);
    const text = /html/i.test(type) || /^\s*<(!doctype html|html)/i.test(raw) ? htmlToText(raw) : raw;
    const capped = capText(text, FETCH_MAX_CHARS);
    const note =
      capped.truncated || cut
        ? `\n\n(The page was cut at ${capped.truncated ? `${FETCH_MAX_CHARS} characters` : `${FETCH_MAX_BYTES} bytes`}.)`
        : "";
    const final = response.url && response.url !== url.href ? `(Redirected to ${response.url}.)\n\n` : "";
    const shown = capText(capped.text, CARD_CHARS);
    return {
      status: "completed",
      content: [textContent(`${final}${shown.text}${shown.truncated ? "\n…" : ""}${note}`)],
      rawOutput: { status: response.status, contentType: type, chars: text.length, truncated: capped.truncated || cut },
      result: {
        text: `${final}Content of ${response.url || url.href} (looking for: ${i.prompt}):\n\n${capped.text}${note}`,
        isError: false,
      },
    };
  },
};

/** The host an "always" answer covers; an unparsable URL covers only itself. */
function hostOf(raw: string): string {
  try {
    return new URL(raw).host || raw;
  } catch {
    return raw;
  }
}

async function readCapped(response: Response, max: number): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(), cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), cut: false };
    const room = max - size;
    chunks.push(value.length > room ? value.subarray(0, room) : value);
    size += Math.min(value.length, room);
    if (size >= max) {
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks), cut: true };
    }
  }
}
