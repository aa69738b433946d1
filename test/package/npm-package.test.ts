/**
 * The npm package, installed as a user installs it: `npm pack` (its `prepack` builds dist/), the
 * tarball installed into an empty prefix with `npm install --offline` from the npm cache this
 * checkout's own install filled (so no network), and the installed bin started as the registry
 * starts it, on the Node.js running npm. Packs a copy of the checkout, so the checkout's dist/ is
 * left alone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHECKOUT } from "../support/build.ts";
import { describeInstalled } from "../support/installed-agent.ts";

const pkg = JSON.parse(readFileSync(join(CHECKOUT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
};
/**
 * What the tarball may weigh (measured 3.0 MB packed, 6.7 MB unpacked at 0.1.0). Raised from 4 and
 * 9 MB when the image and PDF libraries (issue 56) and the shell parser's two WebAssembly modules
 * (issue 50) came, with the other capabilities merged beside them (docs/performance.md); the
 * budgets from 6.5 and 15 MB to 7 and 17 MB when the OS sandbox's runtime came (issue 51: its
 * bundle, 0.6 MB, and its seccomp helper for x64 and arm64, 1.4 MB unpacked; docs/security.md).
 */
const BUDGET = { packed: 7_000_000, unpacked: 17_000_000 };

let stage = "";
let tarball = "";
let prefix = "";
let installLog = "";
let lockName = "";
let lockIntegrity = "";

/** Installs the tarball into a new empty prefix under the stage; resolves to the prefix and npm's output. */
async function install(dir: string, flags: string[] = []): Promise<{ prefix: string; log: string }> {
  const at = join(stage, dir);
  mkdirSync(at);
  writeFileSync(
    join(at, "package.json"),
    JSON.stringify({ name: "prefix", private: true, dependencies: { [pkg.name]: `file:../${lockName}` } }),
  );
  writeFileSync(join(at, "package-lock.json"), JSON.stringify(prefixLock(lockName, lockIntegrity)));
  return { prefix: at, log: await run(["npm", "install", "--offline", "--no-audit", "--no-fund", ...flags], at) };
}

async function run(command: string[], cwd: string): Promise<string> {
  const child = Bun.spawn(command, {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`${command.join(" ")} failed (${code}):\n${out}\n${err}`);
  return out + err;
}

/**
 * The prefix's lockfile: the tarball, and `bun` with its platform packages exactly as this
 * checkout's lockfile pins them. `npm ci` filled the cache with those packages' tarballs (by
 * integrity) but not with the registry's metadata, which resolving `bun@1.4.5` afresh would need.
 */
function prefixLock(tarballName: string, integrity: string): unknown {
  const lock = JSON.parse(readFileSync(join(CHECKOUT, "package-lock.json"), "utf8")) as {
    packages: Record<string, unknown>;
  };
  const spec = `file:../${tarballName}`;
  const packages: Record<string, unknown> = {
    "": { dependencies: { [pkg.name]: spec } },
    [`node_modules/${pkg.name}`]: {
      version: pkg.version,
      resolved: spec,
      integrity,
      dependencies: { bun: "1.4.5" },
      bin: pkg.bin,
      engines: { node: ">=20" },
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === "node_modules/bun" || path.startsWith("node_modules/@oven/")) packages[path] = entry;
  }
  return { name: "prefix", lockfileVersion: 3, requires: true, packages };
}

beforeAll(async () => {
  stage = mkdtempSync(join(tmpdir(), "verbatim-npm-package-"));
  const copy = join(stage, "checkout");
  for (const part of [
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "LICENSE",
    "README.md",
    "bin",
    "src",
    "scripts",
  ]) {
    cpSync(join(CHECKOUT, part), join(copy, part), { recursive: true });
  }
  symlinkSync(join(CHECKOUT, "node_modules"), join(copy, "node_modules"));
  await run(["npm", "pack", "--pack-destination", stage], copy);
  lockName = `${pkg.name}-${pkg.version}.tgz`;
  tarball = join(stage, lockName);
  lockIntegrity = `sha512-${new Bun.CryptoHasher("sha512").update(readFileSync(tarball)).digest("base64")}`;
  ({ prefix, log: installLog } = await install("prefix"));
}, 180_000);

afterAll(() => {
  if (stage) rmSync(stage, { recursive: true, force: true });
});

describe("the npm package", () => {
  test("ships only what runs: the launcher, dist/, LICENSE, README and package.json", async () => {
    const listing = await run(["tar", "-tzf", tarball], stage);
    const files = listing
      .trim()
      .split("\n")
      .map((f) => f.replace(/^package\//, ""))
      .sort();
    expect(files.filter((f) => !f.startsWith("dist/"))).toEqual([
      "LICENSE",
      "README.md",
      "bin/verbatim.js",
      "package.json",
    ]);
    expect(files).toContain("dist/verbatim.js");
    expect(files.filter((f) => f.startsWith("dist/vendor/") && f.endsWith(".js")).sort()).toEqual([
      "dist/vendor/anthropic-sdk.js",
      "dist/vendor/image-codecs.js",
      "dist/vendor/mcp-sdk.js",
      "dist/vendor/openai-sdk.js",
      "dist/vendor/pdf-reader.js",
      "dist/vendor/sandbox-runtime.js",
      "dist/vendor/shell-parser.js",
      "dist/vendor/yaml.js",
    ]);
  });

  test(`stays within its size budget (${BUDGET.packed / 1e6} MB packed, ${BUDGET.unpacked / 1e6} MB unpacked)`, async () => {
    expect(statSync(tarball).size).toBeLessThan(BUDGET.packed);
    const sizes = (await run(["tar", "-tzvf", tarball], stage))
      .trim()
      .split("\n")
      .map((line) => Number(line.split(/\s+/)[2]));
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(BUDGET.unpacked);
  });

  test("installs offline with Bun as its only dependency, and no engine warning", () => {
    expect(installLog).toContain("added 3 packages"); // verbatim, bun, and bun's binary for this platform
    expect(installLog).not.toContain("EBADENGINE");
  });

  test("starts even when installed with --ignore-scripts (bun's postinstall never linked its binary)", async () => {
    const bare = await install("prefix-no-scripts", ["--ignore-scripts"]);
    const launcher = join(bare.prefix, "node_modules", ".bin", pkg.name);
    const child = Bun.spawn([launcher, "--version"], { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    expect({ code, out: out.trim(), err }).toEqual({ code: 0, out: pkg.version, err: "" });
  }, 60_000);
});

describeInstalled("the installed package's bin", () => [join(prefix, "node_modules", ".bin", pkg.name)], pkg.version);
