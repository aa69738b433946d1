#!/usr/bin/env node
// Launches verbatim on the Bun this package depends on (the `bun` npm package, so it is in
// node_modules, not on PATH); runs under Node.js 20+, or Bun. Starts the built bundle (what the
// npm package ships), else the source (a checkout that was not built). Downloads nothing.
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

// The bun package's bin/bun.exe is a placeholder until its postinstall links the real binary
// (from the @oven/bun-<platform> package it depends on), so a real one is more than a few KiB.
const isBinary = (path) => existsSync(path) && statSync(path).size > 1024 * 1024;

/** The platform packages the `bun` package may have installed for this machine, most specific first. */
function platformPackages() {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "arm64" ? "aarch64" : process.arch;
  const base = `@oven/bun-${os}-${arch}`;
  return [base, `${base}-musl`, `${base}-baseline`, `${base}-musl-baseline`];
}

function findBun() {
  const exe = process.platform === "win32" ? "bun.exe" : "bun";
  try {
    const bunDir = dirname(require.resolve("bun/package.json"));
    const linked = join(bunDir, "bin", "bun.exe");
    if (isBinary(linked)) return linked;
    const fromBun = createRequire(join(bunDir, "package.json"));
    for (const name of platformPackages()) {
      try {
        const bin = join(dirname(fromBun.resolve(`${name}/package.json`)), "bin", exe);
        if (isBinary(bin)) return bin;
      } catch {
        // not installed for this platform
      }
    }
  } catch {
    // fall through
  }
  const local = join(root, "node_modules", ".bin", "bun");
  if (existsSync(local)) return local;
  process.stderr.write(
    `verbatim: Bun was not found in node_modules (the "bun" package and its @oven/bun-${process.platform}-${process.arch} binary); ` +
      `reinstall verbatim without --ignore-scripts and without --omit=optional (package at ${root})\n`,
  );
  process.exit(127);
}

const bundle = join(root, "dist", "verbatim.js");
const entry = existsSync(bundle) ? bundle : join(root, "src", "cli.ts");
const child = spawn(findBun(), [entry, ...process.argv.slice(2)], { stdio: "inherit" });
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const signal of forwarded) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  if (!signal) process.exit(code ?? 1);
  // Die of the same signal, so the caller sees what Bun's own exit would show (143 for SIGTERM).
  // The forwarding handler must go first: while it is installed, the signal would be caught and
  // this process would end with 0.
  for (const s of forwarded) process.removeAllListeners(s);
  process.kill(process.pid, signal);
});
