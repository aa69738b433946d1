/** A client may write its requests and close its end at once: every request is still answered. */
import { describe, expect, test } from "bun:test";
import { agentCommand } from "../../src/client/spawn-agent.ts";
import { sandbox } from "../support/workspace.ts";

describe("end of input", () => {
  test("requests written before stdin closes are all answered (even one that loads the engine), then the agent exits", async () => {
    const box = sandbox("scripted/plain");
    const requests = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } },
      { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: box.workspace, mcpServers: [] } },
    ];
    const child = Bun.spawn(agentCommand(), {
      stdin: new Blob(requests.map((r) => `${JSON.stringify(r)}\n`)),
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ...box.env },
    });
    const output = await new Response(child.stdout).text();
    expect(await child.exited).toBe(0);
    const answered = output
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: number });
    expect(answered.map((m) => m.id).sort()).toEqual([1, 2]);
  });
});
