/**
 * The test suite's own PostgreSQL server (test/support/postgres-server.ts) does not outlive the
 * process that started it, however that process ends: `bun test` runs no exit handlers, and a
 * kill -9 runs none at all. A server left behind holds memory and a port on a machine that
 * others share, for as long as the machine runs.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";

const SUPPORT = join(import.meta.dir, "..", "support", "postgres-server.ts");
const BUN = process.execPath;

async function listening(port: number): Promise<boolean> {
  try {
    const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

test("the server is stopped and its data removed once the process that started it is killed", async () => {
  const starter = Bun.spawn(
    [
      BUN,
      "-e",
      `const { startPostgres } = await import(${JSON.stringify(SUPPORT)});
       const server = await startPostgres({ durable: false });
       console.log(JSON.stringify({ port: server.port, dataDir: server.dataDir }));
       await Bun.sleep(120_000);`,
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  const reader = starter.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  const { port, dataDir } = JSON.parse(text) as { port: number; dataDir: string };
  expect(await listening(port)).toBe(true);
  starter.kill(9);
  await starter.exited;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && ((await listening(port)) || existsSync(dataDir))) await Bun.sleep(200);
  expect(await listening(port)).toBe(false);
  expect(existsSync(dataDir)).toBe(false);
}, 60_000);
