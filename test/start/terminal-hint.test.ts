/**
 * `verbatim` with no arguments is the ACP agent. A person who typed it at a terminal is told so on
 * stderr (else they would wait on a silent protocol stream); an editor, whose stdin is a pipe, and
 * a run with stdin at /dev/null (a character device that is not a terminal) are not. The question
 * is asked without loading node:tty (src/start/stdin-terminal.ts), so each case is driven here.
 */
import { expect, test } from "bun:test";
import { runCli } from "../support/cli-process.ts";
import { terminal } from "../support/pty.ts";
import { sandbox } from "../support/workspace.ts";

const HINT = "verbatim is an ACP agent";
const INITIALIZE = `${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } })}\n`;

test("at a terminal, the agent says it speaks ACP on stdin and how to talk to it instead", async () => {
  const box = sandbox();
  const screen = terminal([], box.env);
  await screen.waitFor(HINT);
  await screen.waitFor("verbatim chat");
  screen.type("\x04");
  expect(await screen.exited).toBe(0);
}, 30_000);

test("with stdin a pipe, as an editor runs it, nothing but the protocol is said", async () => {
  const box = sandbox();
  const result = await runCli([], box.env, { stdin: INITIALIZE });
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout.split("\n")[0] ?? "")).toMatchObject({ id: 0, result: { protocolVersion: 1 } });
  expect(result.stderr).not.toContain(HINT);
});

test("with stdin at /dev/null (a character device, not a terminal), no hint is printed and the agent ends", async () => {
  const box = sandbox();
  const result = await runCli([], box.env);
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("");
  expect(result.stderr).not.toContain(HINT);
});
