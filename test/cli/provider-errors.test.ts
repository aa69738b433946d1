/**
 * A provider that answers with something other than its API (a wrong base URL): the run says so
 * once, in words, with the likely fix, and does not retry what cannot succeed.
 */
import { describe, expect, test } from "bun:test";
import { fixtureServer } from "../support/fixture-server.ts";
import { runCli } from "../support/cli-process.ts";
import { chatKit, modelRef } from "../support/provider-kits.ts";
import { sandbox } from "../support/workspace.ts";

const page = (title: string) =>
  `<!DOCTYPE html>\n<html><head><title>${title}</title><style>body { font-family: sans-serif }</style></head>` +
  `<body><h1>${title}</h1>${"<p>The requested URL was not found on this server.</p>".repeat(40)}</body></html>`;

describe("verbatim run against a wrong base URL", () => {
  test("a web page is not printed: its title is, with the hint that /v1 is missing", async () => {
    const box = sandbox();
    const server = fixtureServer();
    server.enqueue({ status: 404, html: page("404 Not Found") });
    const env = { ...box.env, VERBATIM_MODEL: modelRef(chatKit), OPENAI_BASE_URL: server.origin };
    const r = await runCli(["run", "--cwd", box.workspace, "Hi"], env);
    expect(r.code).toBe(1);
    const all = r.stdout + r.stderr;
    expect(all).not.toContain("<html");
    expect(all).not.toContain("font-family");
    expect(r.stderr).toContain('a web page titled "404 Not Found"');
    expect(r.stderr).toContain(`the base URL ${server.origin} may be missing /v1`);
  });

  test("a 501 (Not Implemented) is not retried", async () => {
    const box = sandbox();
    const server = fixtureServer();
    server.enqueue(...Array.from({ length: 4 }, () => ({ status: 501, html: page("501 Not Implemented") })));
    const env = { ...box.env, VERBATIM_MODEL: modelRef(chatKit), OPENAI_BASE_URL: `${server.origin}/v1` };
    const r = await runCli(["run", "--cwd", box.workspace, "Hi"], env);
    expect(r.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain("retrying");
  });

  test("a proxy's error page that is retried is shown short in each retry notice", async () => {
    const box = sandbox();
    const server = fixtureServer();
    server.enqueue({ status: 502, html: page("502 Bad Gateway") }, { sse: chatKit.text("Recovered.") });
    const env = { ...box.env, VERBATIM_MODEL: modelRef(chatKit), OPENAI_BASE_URL: `${server.origin}/v1` };
    const r = await runCli(["run", "--cwd", box.workspace, "Hi"], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('a web page titled "502 Bad Gateway"');
    expect(r.stdout).not.toContain("<html");
    expect(r.stdout).toContain("Recovered.");
  });
});
