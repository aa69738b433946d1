#!/usr/bin/env node
// Launches verbatim on the project's own Bun. Bun is installed from npm (the `bun` package), so
// it is in node_modules, not on PATH. Runs the built bundle when there is one, else the source.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

function findBun() {
  try {
    // The npm package ships its binary as bin/bun.exe on every platform.
    const bin = join(dirname(require.resolve("bun/package.json")), "bin", "bun.exe");
    if (existsSync(bin)) return bin;
  } catch {
    // fall through
  }
  const local = join(root, "node_modules", ".bin", "bun");
  if (existsSync(local)) return local;
  process.stderr.write("verbatim: Bun was not found in node_modules; run `npm install` in " + root + "\n");
  process.exit(127);
}

const bundle = join(root, "dist", "verbatim.js");
const entry = existsSync(bundle) ? bundle : join(root, "src", "cli.ts");
const child = spawn(findBun(), [entry, ...process.argv.slice(2)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
