/**
 * The README's editor snippets cannot rot: every JSON block parses, every editor launches the
 * same command from a checkout, and that command (with `/path/to/verbatim` as this checkout)
 * starts a verbatim that answers ACP; the npx snippets start this package (whose installed bin
 * test/package/npm-package.test.ts drives), and the checkout's setup commands keep their heading.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnAgent } from "../../src/client/spawn-agent.ts";
import { ViewClient } from "../../src/client/view-client.ts";
import { buildBundle, CHECKOUT as checkout } from "../support/build.ts";
import { sandbox } from "../support/workspace.ts";

const readme = readFileSync(`${checkout}/README.md`, "utf8");
const pkg = JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as {
  name: string;
  bin: Record<string, string>;
};
const registryEntry = JSON.parse(readFileSync(join(checkout, "registry", "agent.json"), "utf8")) as {
  distribution: { npx?: { package: string } };
};

/** The fenced code blocks of a Markdown text with the given info string, in order. */
function fenced(markdown: string, language: string): string[] {
  const blocks: string[] = [];
  const fence = "```";
  const pattern = new RegExp(`^${fence}${language}\\n([\\s\\S]*?)^${fence}$`, "gm");
  for (const match of markdown.matchAll(pattern)) blocks.push(match[1] ?? "");
  return blocks;
}

type Launch = { command: string; args: string[]; env: Record<string, string> };

/** Every agent entry of the editor snippets: Zed and JetBrains (`agent_servers`), VS Code (`acp.agents`). */
function allLaunches(): Launch[] {
  return fenced(readme, "json")
    .map((block) => JSON.parse(block) as Record<string, Record<string, Launch> | undefined>)
    .flatMap((settings) => Object.values(settings.agent_servers ?? settings["acp.agents"] ?? {}));
}

/** The entries that start verbatim from a checkout. */
const launches = (): Launch[] => allLaunches().filter((l) => l.command.startsWith("/path/to/verbatim/"));

const inCheckout = (path: string) => path.replaceAll("/path/to/verbatim", checkout);

describe("README editor snippets", () => {
  test("every JSON block parses", () => {
    const blocks = fenced(readme, "json");
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) expect(() => JSON.parse(block)).not.toThrow();
  });

  test("Zed, VS Code and JetBrains launch the same command, each with a model in its env", () => {
    const all = launches();
    expect(all).toHaveLength(3);
    for (const launch of all) {
      expect({ command: launch.command, args: launch.args }).toEqual({ command: all[0]!.command, args: all[0]!.args });
      expect(launch.env.VERBATIM_MODEL).toMatch(/^[a-z-]+\/.+/);
    }
  });

  test("the Neovim adapter launches that command too", () => {
    const [lua] = fenced(readme, "lua");
    const { command, args } = launches()[0]!;
    const quoted = [command, ...args].map((part) => `"${part}"`).join(", ");
    expect(lua).toContain(`default = { ${quoted} }`);
    expect(lua).toContain("VERBATIM_MODEL = ");
  });

  test("the acpx example launches that command too", () => {
    const acpx = fenced(readme, "sh").find((block) => block.includes("--agent"));
    const { command, args } = launches()[0]!;
    expect(acpx).toContain(`--agent "${[command, ...args].join(" ")}"`);
  });

  test("the npx snippets start this package as the registry entry does: no arguments for the agent, subcommands after it", () => {
    const npx = fenced(readme, "sh").find((block) => block.startsWith("npx "));
    const lines = (npx ?? "").trim().split("\n");
    expect(lines[0]).toBe(`npx -y ${pkg.name}`);
    for (const line of lines) expect(line.startsWith(`npx -y ${pkg.name}`)).toBe(true);
    expect(lines).toContain(`npx -y ${pkg.name} setup`);
    const custom = allLaunches().filter((l) => l.command === "npx");
    expect(custom.map((l) => l.args)).toEqual([["-y", pkg.name]]);
    expect(registryEntry.distribution.npx?.package.split("@")[0]).toBe(pkg.name);
    // `npx <package>` runs the bin named as the package.
    expect(pkg.bin[pkg.name]).toBe("bin/verbatim.js");
  });

  test("installing from the registry and npx comes first; the checkout's two setup commands keep their own heading", () => {
    const at = (text: string) => readme.indexOf(text);
    expect(at("### From the ACP Registry (Zed, JetBrains)")).toBeGreaterThan(0);
    expect(at("### From the ACP Registry (Zed, JetBrains)")).toBeLessThan(at("### With npx"));
    expect(at("### With npx")).toBeLessThan(at("## From a checkout"));
    const checkoutSection = readme.slice(at("## From a checkout"), at("## Use it from an editor"));
    const commands = fenced(checkoutSection, "sh").map((b) => b.trim());
    expect(commands).toEqual(["npm install && npm run demo", "npm install && npm test"]);
  });

  test("what works before publishing comes first: the packed tarball of this package, installed globally", () => {
    const install = readme.slice(readme.indexOf("## Install"), readme.indexOf("### From the ACP Registry"));
    expect(install).toContain("**What works today.**");
    expect(install).toContain("**Once the package is published**");
    const [today] = fenced(install, "sh");
    // `npm pack` names the file <name>-<version>.tgz (test/package/npm-package.test.ts installs it).
    expect(today?.trim().split("\n")).toEqual([
      "npm install && npm pack",
      `npm install -g ./${pkg.name}-*.tgz`,
      `${Object.keys(pkg.bin).find((b) => b !== pkg.name)} demo`,
    ]);
  });

  test("the command, run from this checkout (the bundle built as the README says), is a verbatim that answers ACP", async () => {
    const { command, args } = launches()[0]!;
    const box = sandbox("scripted/plain");
    // `npm run build` writes dist/verbatim.js; build the same bundle into the sandbox so the test
    // runs today's source without touching the checkout.
    const built = await buildBundle(join(box.root, "dist"));
    const resolve = (part: string) => (part === "/path/to/verbatim/dist/verbatim.js" ? built : inCheckout(part));
    const agent = spawnAgent({ command: [resolve(command), ...args.map(resolve)], env: box.env });
    const client = new ViewClient();
    const connection = client.app().connect(agent.stream);
    try {
      const init = await connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      expect(init.agentInfo?.name).toBe("verbatim");
      const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, {
        cwd: box.workspace,
        mcpServers: [],
      });
      const { stopReason } = await connection.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Hi" }],
      });
      expect(stopReason).toBe("end_turn");
    } finally {
      connection.close();
      agent.kill();
      await agent.exited;
    }
  });
});
