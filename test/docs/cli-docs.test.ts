/** The exit codes and commands the README and `--help` document are the ones the command line has. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { USAGE_EXIT } from "../../src/cli/cli-error.ts";
import { COMMANDS } from "../../src/cli/command-table.ts";
import { exitCodes } from "../../src/cli/run.ts";
import { STDOUT_CLOSED_EXIT } from "../../src/cli/stdout-sink.ts";
import { CHECKOUT } from "../support/build.ts";
import { runCli } from "../support/cli-process.ts";

const readme = readFileSync(`${CHECKOUT}/README.md`, "utf8");

/** Every exit code `verbatim run` can end with: its own, and the signals' (128 + the signal) it dies of. */
const RUN_EXITS = [...new Set([...Object.values(exitCodes), USAGE_EXIT, STDOUT_CLOSED_EXIT, 128 + 1, 128 + 15])].sort(
  (a, b) => a - b,
);

describe("the documented exit codes", () => {
  test("the README's table lists exactly the codes verbatim run ends with", () => {
    const rows = [...readme.matchAll(/^\| (\d+) \| /gm)].map((m) => Number(m[1]));
    expect(rows).toEqual(RUN_EXITS);
  });

  test("run's help names each of them, and --help the two commands that check the setup", async () => {
    const help = (await runCli(["help", "run"], {})).stdout;
    for (const code of RUN_EXITS) expect(help).toMatch(new RegExp(`\\b${code} `));
    expect(help).toContain('{"error":{"code","message","data"?},"sessionId"?}');
    const global = (await runCli(["--help"], {})).stdout;
    expect(global).toContain("verbatim models");
    expect(global).toContain("verbatim doctor");
  });
});

describe("the README's command line", () => {
  const section = readme.slice(readme.indexOf("## Command line"), readme.indexOf("### `verbatim chat`"));

  test("lists every command of the table, with each of its options", () => {
    for (const spec of COMMANDS) {
      const entry = new RegExp(`^verbatim ${spec.name}\\b.*(\\n {10,}.*)*`, "m").exec(section)?.[0] ?? "";
      expect(entry).toStartWith(`verbatim ${spec.name}`);
      for (const option of Object.keys(spec.options)) expect(entry).toContain(`--${option}`);
    }
  });
});

describe("the documented commands run without a global Bun", () => {
  const docs = ["README.md", ...readdirSync(join(CHECKOUT, "docs")).map((f) => `docs/${f}`)].filter((f) =>
    f.endsWith(".md"),
  );

  test.each(docs)("%s names Bun as node_modules/.bin/bun wherever it gives a command", (file) => {
    const text = readFileSync(join(CHECKOUT, file), "utf8");
    // A command in inline code, or a line of a shell block, that starts with a bare `bun`.
    const bare = [...text.matchAll(/`(?:[A-Z_]+=\S+ )*bun [^`]*`|^(?:[A-Z_]+=\S+ )*bun .*$/gm)].map((m) => m[0]);
    expect(bare).toEqual([]);
  });
});
