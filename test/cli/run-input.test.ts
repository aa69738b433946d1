/** Where `verbatim run` takes its prompt from: the argument, stdin, and files attached with --file. */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { lastJsonLine, runCli } from "../support/cli-process.ts";
import { exportedFacts } from "../support/exported-facts.ts";
import { sandbox } from "../support/workspace.ts";

const exported = exportedFacts;

describe("verbatim run: the prompt from stdin", () => {
  test("`run -` reads the prompt from stdin", async () => {
    const box = sandbox("scripted/echo");
    const r = await runCli(["run", "--cwd", box.workspace, "-"], box.env, { stdin: "Summarize the\nREADME" });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("You said: Summarize the\nREADME");
  });

  test("with no prompt argument and stdin not a terminal, stdin is the prompt", async () => {
    const box = sandbox("scripted/echo");
    const r = await runCli(["run", "--cwd", box.workspace], box.env, { stdin: "from a pipe" });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("You said: from a pipe");
  });

  test("an empty stdin is a usage error, and nothing is recorded", async () => {
    const box = sandbox("scripted/echo");
    const r = await runCli(["run", "--cwd", box.workspace, "-"], box.env, { stdin: "  \n" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("stdin was empty");
    expect((await runCli(["sessions"], box.env)).stdout.trim()).toBe("no sessions");
  });
});

describe("verbatim run --file", () => {
  test("attaches a text file as an embedded resource the model reads", async () => {
    const box = sandbox("scripted/echo");
    const file = join(box.workspace, "notes.txt");
    writeFileSync(file, "Remember the milk.\n");
    const r = await runCli(["run", "--json", "--file", file, "--cwd", box.workspace, "What does it say?"], box.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Remember the milk.");
    const prompt = (await exported(box.env, lastJsonLine(r.stdout).sessionId as string)).find(
      (f) => f.kind === "prompt_received",
    );
    expect(prompt?.blocks).toEqual([
      { type: "text", text: "What does it say?" },
      { type: "resource", resource: { uri: pathToFileURL(file).href, text: "Remember the milk.\n" } },
    ]);
  });

  test("a relative path is the caller's, and a binary file goes as base64", async () => {
    const box = sandbox("scripted/echo");
    writeFileSync(join(box.root, "data.bin"), Buffer.from([0, 1, 2, 255]));
    const r = await runCli(["run", "--json", "--file", "data.bin", "--cwd", box.workspace, "Look"], box.env, {
      cwd: box.root,
    });
    expect(r.code).toBe(0);
    const prompt = (await exported(box.env, lastJsonLine(r.stdout).sessionId as string)).find(
      (f) => f.kind === "prompt_received",
    );
    expect(prompt?.blocks?.[1]).toEqual({
      type: "resource",
      resource: {
        uri: pathToFileURL(join(box.root, "data.bin")).href,
        blob: Buffer.from([0, 1, 2, 255]).toString("base64"),
        mimeType: "application/octet-stream",
      },
    });
  });

  test("a missing file is a usage error naming it", async () => {
    const box = sandbox("scripted/echo");
    const missing = join(box.workspace, "nope.txt");
    const r = await runCli(["run", "--file", missing, "--cwd", box.workspace, "Look"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--file ${missing}: there is no such file`);
  });
});
