/**
 * The ACP Registry entry (registry/agent.json and registry/icon.svg) is what the registry
 * accepts: checked against the rules of its agent.schema.json (agentclientprotocol/registry),
 * restated here with zod, and kept in step with package.json.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { CHECKOUT } from "../support/build.ts";

const pkg = JSON.parse(readFileSync(join(CHECKOUT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  license: string;
};
const entry: unknown = JSON.parse(readFileSync(join(CHECKOUT, "registry", "agent.json"), "utf8"));
const icon = readFileSync(join(CHECKOUT, "registry", "icon.svg"), "utf8");

// The registry's agent.schema.json, rule for rule: required fields, patterns, and no keys it does not define.
const uri = z.url();
const env = z.record(z.string(), z.string());
const packageDistribution = z.strictObject({
  package: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: env.optional(),
});
const binaryTarget = z.strictObject({
  archive: uri,
  sha256: z
    .string()
    .regex(/^[a-fA-F0-9]{64}$/)
    .optional(),
  cmd: z.string(),
  args: z.array(z.string()).optional(),
  env: env.optional(),
});
const platforms = [
  "darwin-aarch64",
  "darwin-x86_64",
  "linux-aarch64",
  "linux-x86_64",
  "windows-aarch64",
  "windows-x86_64",
] as const;
const registryAgent = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/),
  name: z.string().min(1),
  version: z.string().regex(/^[0-9]+\.[0-9]+\.[0-9]+/),
  description: z.string().min(1),
  repository: uri.optional(),
  website: uri.optional(),
  authors: z.array(z.string()).optional(),
  license: z.string().optional(),
  license_url: uri.optional(),
  icon: z.string().optional(),
  distribution: z
    .strictObject({
      binary: z
        .partialRecord(z.enum(platforms), binaryTarget)
        .refine((b) => Object.keys(b).length > 0, "at least one platform")
        .optional(),
      npx: packageDistribution.optional(),
      uvx: packageDistribution.optional(),
    })
    .refine((d) => Object.keys(d).length > 0, "at least one distribution"),
});

describe("the ACP Registry entry", () => {
  test("is valid against the registry's agent schema", () => {
    const checked = registryAgent.safeParse(entry);
    expect(checked.success ? [] : checked.error.issues).toEqual([]);
  });

  test("the schema check rejects what the registry rejects", () => {
    const valid = registryAgent.parse(entry);
    expect(registryAgent.safeParse({ ...valid, id: "Verbatim" }).success).toBe(false);
    expect(registryAgent.safeParse({ ...valid, version: "one" }).success).toBe(false);
    expect(registryAgent.safeParse({ ...valid, distribution: {} }).success).toBe(false);
    expect(registryAgent.safeParse({ ...valid, distribution: { npx: { package: pkg.name, extra: 1 } } }).success).toBe(
      false,
    );
    const { description: _d, ...noDescription } = valid;
    expect(registryAgent.safeParse(noDescription).success).toBe(false);
  });

  test("its version and npx package are package.json's, and `npx <package>` runs verbatim's bin", () => {
    const valid = registryAgent.parse(entry);
    expect(valid.version).toBe(pkg.version);
    expect(valid.license).toBe(pkg.license);
    expect(valid.distribution.npx?.package).toBe(`${pkg.name}@${pkg.version}`);
    // npx runs the bin named as the package; no `args`: with none, verbatim is the ACP agent on stdio.
    expect(pkg.bin[pkg.name]).toBe("bin/verbatim.js");
    expect(valid.distribution.npx?.args).toBeUndefined();
  });

  test("the icon is a 16x16 SVG drawn in currentColor only", () => {
    expect(icon).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(icon).toMatch(/<svg [^>]*width="16" height="16"/);
    expect(icon).toMatch(/viewBox="0 0 16 16"/);
    expect(icon).toContain("currentColor");
    const colors = [...icon.matchAll(/(?:fill|stroke|stop-color|color)\s*[=:]\s*"?([^";\s>]+)/g)].map((m) => m[1]);
    expect(colors.filter((c) => c !== "currentColor" && c !== "none")).toEqual([]);
  });
});
