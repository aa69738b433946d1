/**
 * The command line as one table: the global usage, each command's `--help` and `verbatim help
 * NAME` drawn from its rows; a mistyped command answered with the nearest; usage mistakes said
 * with the command's usage.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { nearestCommand } from "../../src/cli/command-help.ts";
import { COMMANDS, commandNamed } from "../../src/cli/command-table.ts";
import { runOptions, sessionFlagOptions } from "../../src/cli/run-args.ts";
import { runCli } from "../support/cli-process.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

let box: Sandbox;
beforeAll(() => {
  box = sandbox("scripted/plain");
});

const names = COMMANDS.map((c) => c.name);

describe("each command's help", () => {
  test.each(names)("verbatim %s --help exits 0 with its usage, summary and every option", async (name) => {
    const r = await runCli([name, "--help"], box.env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith(`usage: verbatim ${name}`);
    const spec = commandNamed(name);
    for (const option of Object.keys(spec?.options ?? {})) expect(r.stdout).toContain(`--${option}`);
  });

  test("verbatim help NAME prints what NAME --help prints", async () => {
    const [viaHelp, viaFlag] = await Promise.all([
      runCli(["help", "fork"], box.env),
      runCli(["fork", "--help"], box.env),
    ]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toContain("--at MESSAGE");
  });

  test("--help anywhere among a command's arguments is the help, not an unknown option", async () => {
    const r = await runCli(["show", "ses_whatever", "--help"], box.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith("usage: verbatim show ID [--ids | --context]");
  });

  test("run's help names every exit code", async () => {
    const r = await runCli(["help", "run"], box.env);
    for (const code of [0, 1, 2, 3, 4, 5, 129, 130, 141, 143]) expect(r.stdout).toMatch(new RegExp(`\\b${code} `));
  });
});

describe("the global usage", () => {
  test("lists every command of the table, each with its summary's start", async () => {
    const r = await runCli(["--help"], box.env);
    expect(r.code).toBe(0);
    for (const spec of COMMANDS) {
      expect(r.stdout).toContain(`  verbatim ${spec.name}`);
      expect(r.stdout).toContain(spec.summary.split(" ").slice(0, 3).join(" "));
    }
    expect(r.stdout).toContain("verbatim help COMMAND");
  });

  test("the options run and chat document are the ones they parse", () => {
    expect(Object.keys(commandNamed("run")?.options ?? {}).sort()).toEqual(Object.keys(runOptions).sort());
    expect(Object.keys(commandNamed("chat")?.options ?? {}).sort()).toEqual(Object.keys(sessionFlagOptions).sort());
  });
});

describe("mistakes", () => {
  test("a mistyped command suggests the nearest, exit 2", async () => {
    const r = await runCli(["shwo", "x"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'verbatim: unknown command "shwo"; did you mean `verbatim show`?\n`verbatim --help` lists the commands.\n',
    );
  });

  test("a word far from every command suggests none", async () => {
    const r = await runCli(["xylophone"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain("did you mean");
  });

  test("the nearest command: a swapped, missing or extra letter, or an unambiguous start", () => {
    expect(nearestCommand("sesions", names)).toBe("sessions");
    expect(nearestCommand("expotr", names)).toBe("export");
    expect(nearestCommand("docter", names)).toBe("doctor");
    expect(nearestCommand("rewinds", names)).toBe("rewind");
    expect(nearestCommand("imp", names)).toBe("import");
    expect(nearestCommand("zzz", names)).toBeUndefined();
  });

  test("an unknown option is said with the command's usage, exit 2, no stack", async () => {
    const r = await runCli(["fork", "ses_x", "--bogus"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown option '--bogus'");
    expect(r.stderr).toContain("usage: verbatim fork ID [--at MESSAGE]");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test("a missing argument is said with the command's usage, exit 2", async () => {
    const r = await runCli(["watch"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("verbatim: watch needs ID\nusage: verbatim watch ID\n`verbatim help watch` says more.\n");
  });
});
