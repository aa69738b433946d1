/** WebFetch against a loopback server: HTML becomes readable text, size-capped; failures explained. */
import { afterAll, describe, expect, test } from "bun:test";
import { FETCH_MAX_CHARS, webFetchTool } from "../../src/core/tools/web-fetch.ts";
import { htmlToText } from "../../src/core/tools/web/html-to-text.ts";
import { runTool } from "../support/tool-run.ts";
import { sandbox } from "../support/workspace.ts";

const PAGE = `<!doctype html><html><head><title>Sample &amp; page</title><style>body{color:red}</style>
<script>alert("no")</script></head><body><nav><a href="/home">Home</a></nav>
<h1>Welcome</h1><p>First&nbsp;paragraph with <a href="https://example.org/x">a link</a>.</p>
<ul><li>one</li><li>two</li></ul><!-- hidden --><p>Caf&#233; &#x2713;</p></body></html>`;

const server: ReturnType<typeof Bun.serve> = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request): Response {
    const path = new URL(request.url).pathname;
    if (path === "/page") return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
    if (path === "/plain") return new Response("just text", { headers: { "content-type": "text/plain" } });
    if (path === "/big")
      return new Response("y".repeat(FETCH_MAX_CHARS + 500), { headers: { "content-type": "text/plain" } });
    if (path === "/moved") return Response.redirect(`${server.url.origin}/plain`, 302);
    if (path === "/image")
      return new Response(new Uint8Array([137, 80, 78, 71]), { headers: { "content-type": "image/png" } });
    return new Response("nope", { status: 404, statusText: "Not Found" });
  },
});
afterAll(() => server.stop(true));

const url = (path: string) => `${server.url.origin}${path}`;
const fetchIt = (u: string) => runTool(webFetchTool, { url: u, prompt: "What is it?" }, { cwd: sandbox().workspace });

describe("WebFetch", () => {
  test("turns HTML into readable text: no scripts or styles, headings, links and entities kept", async () => {
    const outcome = await fetchIt(url("/page"));
    expect(outcome.status).toBe("completed");
    const text = outcome.result.text;
    expect(text).toContain("Title: Sample & page");
    expect(text).toContain("# Welcome");
    expect(text).toContain("First paragraph with [a link](https://example.org/x).");
    expect(text).toContain("- one\n- two");
    expect(text).toContain("Café ✓");
    expect(text).not.toContain("alert");
    expect(text).not.toContain("color:red");
    expect(text).not.toContain("hidden");
  });

  test("returns plain text as it is, following redirects", async () => {
    const outcome = await fetchIt(url("/moved"));
    expect(outcome.result.text).toContain("(Redirected to");
    expect(outcome.result.text).toEndWith("just text");
  });

  test("caps what the model gets, with a visible note", async () => {
    const outcome = await fetchIt(url("/big"));
    expect(outcome.result.text).toContain(`(The page was cut at ${FETCH_MAX_CHARS} characters.)`);
    expect(outcome.result.text.length).toBeLessThan(FETCH_MAX_CHARS + 500);
  });

  test("HTTP errors, binary content, other schemes and bad URLs fail with a reason", async () => {
    expect((await fetchIt(url("/missing"))).result).toEqual({
      text: `Fetching ${url("/missing")} failed with HTTP 404 Not Found.`,
      isError: true,
    });
    expect((await fetchIt(url("/image"))).result.text).toContain("is image/png, not text");
    expect((await fetchIt("file:///etc/passwd")).result.text).toContain("Only http and https");
    expect((await fetchIt("not a url")).result.text).toContain("is not a valid URL");
  });

  test("an always-answer covers the host that was asked about", () => {
    expect(webFetchTool.ruleScope?.({ url: "https://docs.example.com/a?b", prompt: "" })).toBe("docs.example.com");
  });
});

describe("htmlToText", () => {
  test("collapses whitespace and keeps paragraphs apart", () => {
    expect(htmlToText("<p>a   b</p>\n\n\n<p>c</p>")).toBe("a b\n\nc");
  });
});
