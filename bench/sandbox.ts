/**
 * The OS sandbox's cost per command: a `true` run the way Bash runs it (src/core/tools/shell/
 * local-process.ts), unsandboxed and sandboxed (wrapped by the runtime with a session's policy,
 * its verdicts read after), side by side, interleaved, in one process after the runtime started.
 * Also a bare `bwrap` with the same namespaces, which says how much of the cost is bubblewrap's
 * own and how much the runtime's wrapper (its proxy bridges and seccomp helper).
 *
 * `bun bench/sandbox.ts [--runs N]`; prints medians and p90s and the sandbox's added cost.
 */
import { parseArgs } from "node:util";
import { tmpdir } from "node:os";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { commandSandbox } from "../src/core/sandbox/command-sandbox.ts";
import { startSandbox } from "../src/core/sandbox/sandbox-runtime-host.ts";
import { sandboxInForce } from "../src/core/sandbox/sandbox-settings.ts";
import { runLocal } from "../src/core/tools/shell/local-process.ts";
import { median, quantile } from "./lib/stats.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "40" } } });
const runs = Number(values.runs);

const start = await startSandbox();
if (!start.ok) {
  console.error(`the sandbox cannot start here: ${start.reason}`);
  process.exit(1);
}
const workspace = mkdtempSync(join(tmpdir(), "verbatim-bench-sandbox-"));
const home = process.env.HOME ?? "/root";
const inForce = sandboxInForce(undefined);
const sandbox = commandSandbox({
  confinement: { sandboxed: true, readOnly: false, inForce },
  toolCallId: "bench",
  record: async () => undefined,
  policy: { roots: [workspace], cwd: workspace, home, ownFolders: [], ownReadable: [], readDenies: [], fetchHosts: [] },
});

const run = (command: string) =>
  runLocal({
    command,
    cwd: workspace,
    env: process.env as Record<string, string>,
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    onOutput: () => undefined,
  });

const variants: Record<string, () => Promise<void>> = {
  unsandboxed: async () => {
    await run("true");
  },
  sandboxed: async () => {
    const prepared = await sandbox.prepare("true", "true");
    await run(prepared.command);
    await prepared.finish();
  },
  "bare bwrap": async () => {
    await run(
      "bwrap --new-session --die-with-parent --unshare-net --unshare-pid --ro-bind / / --dev /dev --proc /proc -- true",
    );
  },
};

const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (const v of Object.values(variants)) await v(); // warm up
for (let i = 0; i < runs; i++) {
  for (const [name, v] of Object.entries(variants)) {
    const t0 = performance.now();
    await v();
    times[name]!.push(performance.now() - t0);
  }
}
for (const [name, t] of Object.entries(times))
  console.log(`${name.padEnd(12)} median ${median(t).toFixed(1)} ms   p90 ${quantile(t, 0.9).toFixed(1)} ms`);
console.log(
  `the sandbox adds ${(median(times.sandboxed!) - median(times.unsandboxed!)).toFixed(1)} ms to a command (median)`,
);
await start.manager.reset();
rmSync(workspace, { recursive: true, force: true });
