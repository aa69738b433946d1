/**
 * The single-file binary for the registry's linux-x86_64 `binary` distribution (`npm run
 * build:binary`), built away from the checkout and tested as the npm package is: it is the
 * same entry, compiled with its own Bun.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary, hostPlatform } from "../../scripts/build-binary.ts";
import { CHECKOUT } from "../support/build.ts";
import { describeInstalled, runInstalled } from "../support/installed-agent.ts";
import { sandbox } from "../support/workspace.ts";

const { version } = JSON.parse(readFileSync(join(CHECKOUT, "package.json"), "utf8")) as { version: string };
const onLinuxX64 = hostPlatform() === "linux-x86_64";

let outdir = "";
let binary = "";

beforeAll(async () => {
  if (!onLinuxX64) return;
  outdir = mkdtempSync(join(tmpdir(), "verbatim-binary-"));
  binary = await buildBinary("linux-x86_64", outdir);
}, 120_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

if (onLinuxX64) {
  describeInstalled("the linux-x86_64 binary", () => [binary], version);

  test("the binary's demo starts the binary itself again to reopen the session (no Bun, no source beside it)", async () => {
    const box = sandbox();
    const run = await runInstalled([binary], ["demo"], box);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("parity: IDENTICAL");
    expect(run.code).toBe(0);
  });
}
