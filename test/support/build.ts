/** Building the shipped bundle the way `npm run build` does, into a directory of the test's choosing. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** This checkout (where package.json and node_modules are). */
export const CHECKOUT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** `npm run build`'s command (from package.json), with the output directory moved to `outdir`. Resolves to the bundle's path. */
export async function buildBundle(outdir: string): Promise<string> {
  return (await buildBundleSaying(outdir)).bundle;
}

/** As `buildBundle`, with what the build printed on stdout. */
export async function buildBundleSaying(outdir: string): Promise<{ bundle: string; stdout: string }> {
  const pkg = JSON.parse(readFileSync(join(CHECKOUT, "package.json"), "utf8")) as { scripts: { build: string } };
  const [tool, ...buildArgs] = pkg.scripts.build.split(" ").map((a) => (a === "dist" ? outdir : a));
  if (tool !== "bun") throw new Error(`npm run build does not run bun: ${pkg.scripts.build}`);
  const child = Bun.spawn([process.execPath, ...buildArgs], { cwd: CHECKOUT, stdout: "pipe", stderr: "pipe" });
  const stdout = new Response(child.stdout).text();
  const code = await child.exited;
  if (code !== 0) throw new Error(`the build failed: ${await new Response(child.stderr).text()}`);
  return { bundle: join(outdir, "verbatim.js"), stdout: await stdout };
}
