/**
 * The provider SDKs and the MCP SDK load only when something needs them: a provider's first
 * stream, a session's first MCP server. Answering `initialize`, opening, prompting (scripted) and
 * reopening a session without MCP servers load none of them, even with providers configured.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { stdioServer } from "../support/mcp/configs.ts";
import { HEAVY_PACKAGES } from "../support/package-probe.ts";
import { sandbox } from "../support/workspace.ts";

const PROBE = join(import.meta.dir, "..", "support", "package-probe.ts");

/** The heavy packages loaded after each step of a probe run, in a fresh process. */
async function probe(mcpServers: unknown[]): Promise<Record<"initialize" | "new" | "prompt" | "load", string[]>> {
  const box = sandbox("scripted/demo");
  const proc = Bun.spawn([process.execPath, PROBE, JSON.stringify(mcpServers), box.workspace], {
    cwd: box.workspace,
    env: { ...process.env, ...box.env, ANTHROPIC_API_KEY: "test-key", OPENAI_API_KEY: "test-key" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`the probe failed (${code}): ${err}`);
  return JSON.parse(out);
}

describe("heavy packages load when first needed", () => {
  test("a session without MCP servers, on a configured machine, loads neither provider SDK nor the MCP SDK", async () => {
    const steps = await probe([]);
    expect(steps).toEqual({ initialize: [], new: [], prompt: [], load: [] });
  });

  test("a session with an MCP server loads the MCP SDK when it starts, and no provider SDK", async () => {
    const steps = await probe([stdioServer("tests")]);
    expect(steps.initialize).toEqual([]);
    expect(steps.prompt).toEqual(["@modelcontextprotocol/sdk"]);
    expect(HEAVY_PACKAGES.filter((p) => p !== "@modelcontextprotocol/sdk").some((p) => steps.load.includes(p))).toBe(
      false,
    );
  });
});
