/**
 * The floor under any Bun agent: no SDK, no schema, nothing read but stdin's first line, answered
 * with a fixed `initialize` response. What starting Bun and reading one line cost; an early answer
 * to `initialize` can come no sooner. Built like verbatim (a bytecode bundle).
 */
import { writeSync } from "node:fs";

// A bytecode bundle is CommonJS: no top-level await.
async function main(): Promise<void> {
  const reader = Bun.stdin.stream().getReader();
  let seen = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += new TextDecoder().decode(value);
    const nl = seen.indexOf("\n");
    if (nl < 0) continue;
    const { id } = JSON.parse(seen.slice(0, nl)) as { id: number };
    writeSync(
      1,
      `${JSON.stringify({ jsonrpc: "2.0", id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } })}\n`,
    );
    break;
  }
}

main().then(() => process.exit(0));
