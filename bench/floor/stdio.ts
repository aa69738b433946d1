/**
 * The floors' stdio: the cheapest way to put the ACP SDK on this process's stdin and stdout in
 * Bun (its native streams; `node:stream` adapters cost about 10 ms more to load). Every write is
 * flushed before the SDK's next one, as a protocol stream must.
 */
import * as acp from "@agentclientprotocol/sdk";

export function floorStdio(): acp.Stream {
  const sink = Bun.stdout.writer();
  const output = new WritableStream<Uint8Array>({
    async write(chunk) {
      sink.write(chunk);
      await sink.flush();
    },
  });
  return acp.ndJsonStream(output, Bun.stdin.stream());
}
