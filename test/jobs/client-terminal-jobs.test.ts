/**
 * Background jobs in the client's terminal (the client declared `terminal`, so every command runs
 * through `terminal/*`), driven through a spawned agent, the scripted model and a client that runs
 * the terminals itself: a foreground command reaching its timeout moves to the background in its
 * terminal, as a local one does; `run_in_background` starts the job in a terminal; the output is
 * recorded as the agent reads it from the terminal; TaskStop kills and releases the terminal; the
 * job ends with its agent; a reload shows the job exactly as live and asks the client for nothing.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { choose } from "../../src/client/view-client.ts";
import { comparable } from "../../src/cli/demo.ts";
import type { Fact, FactOf } from "../../src/journal/facts/index.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import { connectProcess, load, newSession, prompt, until } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import { ClientServices } from "../support/client-services.ts";
import { exportedFacts, ofKind } from "../support/exported-facts.ts";
import { runCli } from "../support/cli-process.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { cards } from "../parity/harness.ts";

const allow = { policy: choose("allow_once") };

const recordedText = (facts: Fact[]) =>
  ofKind(facts, "job_output")
    .map((f) => (f.output as { resource: { text: string } }).resource.text)
    .join("");

/** A session in a fresh agent whose client runs terminals, with `sleep 300` started in the background in the client's terminal `term-1`. */
async function sleepingInTerminal() {
  const box = sandbox("scripted/call");
  const services = new ClientServices({ terminal: true });
  const c = await connectProcess(box.env, { ...allow, services });
  const { sessionId } = await newSession(c.ctx, box.workspace);
  await prompt(c.ctx, sessionId, 'Bash {"command": "sleep 300", "run_in_background": true}');
  expect(services.running()).toEqual(["term-1"]);
  return { box, services, c, sessionId };
}

/** A fresh agent loads the session (twice: writing, then reading the replay cache): each view equals `live`, and the client is asked for nothing. */
async function expectReloadEqualsLive(box: Sandbox, sessionId: string, live: ViewModel): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const services = new ClientServices({ terminal: true });
    const again = await connectProcess(box.env, { ...allow, services });
    try {
      await load(again.ctx, sessionId, box.workspace);
      expect(diffValues(comparable(live), comparable(again.client.view(sessionId)))).toEqual([]);
      expect(services.calls).toEqual([]);
    } finally {
      await again.close();
    }
  }
}

describe("background jobs in the client's terminal", () => {
  test("a foreground command that reaches its timeout moves to the background in its terminal, the model told its id and output file, its output recorded until it ends; a reload equals live", async () => {
    const box = sandbox("scripted/call");
    const services = new ClientServices({ terminal: true });
    const c = await connectProcess(box.env, { ...allow, services });
    let sessionId = "";
    try {
      ({ sessionId } = await newSession(c.ctx, box.workspace));
      await prompt(c.ctx, sessionId, 'Bash {"command": "echo before; sleep 1.5; echo after", "timeout": 500}');
      const card = () => cards(c.client.view(sessionId))[0];
      expect(textOf(card()?.content)).toMatch(
        /Command did not complete within its 500 ms timeout and was moved to the background with ID: (\S+)\. Output is being written to: (\S+\.output)\./,
      );
      // The terminal was not killed at the timeout: the command ran on and ended by itself.
      await until(() => card()?.status === "completed", "the moved job to end", 15_000);
      expect(textOf(card()?.content)).toContain("before\nafter");
      expect(textOf(card()?.content)).toMatch(/Background job \S+ ended: exit code 0\./);
      expect(services.calls).not.toContain("terminal/kill");
      expect(services.calls.filter((m) => m === "terminal/create")).toHaveLength(1);
      expect(services.calls.at(-1)).toBe("terminal/release");
      expect(services.running()).toEqual([]);
    } finally {
      await c.close();
    }
    const facts = await exportedFacts(box.env, sessionId);
    const [started] = ofKind(facts, "job_started");
    // The job names its terminal; no local process group was recorded, since none was started.
    expect(started).toMatchObject({ terminalId: "term-1", movedAtTimeoutMs: 500 });
    expect(started?.pid).toBeUndefined();
    // What the terminal printed before the timeout is the model's answer; what followed, the job's records.
    const [finished] = ofKind(facts, "tool_call_finished");
    expect(finished?.result.text).toStartWith("before\n");
    expect(recordedText(facts)).toBe("before\nafter\n");
    expect(readFileSync(started?.outputPath ?? "", "utf8")).toBe("before\nafter\n");
    expect(ofKind(facts, "job_ended")).toEqual([
      expect.objectContaining({ by: "exit", exitCode: 0 }) as FactOf<"job_ended">,
    ]);
    await expectReloadEqualsLive(box, sessionId, c.client.view(sessionId));
  }, 60_000);

  test("in a client terminal as locally, a command starting with sleep is killed at its timeout (terminal/kill, then released), not moved", async () => {
    const box = sandbox("scripted/call");
    const services = new ClientServices({ terminal: true });
    const c = await connectProcess(box.env, { ...allow, services });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, 'Bash {"command": "sleep 5", "timeout": 300}');
      const [card] = cards(c.client.view(sessionId));
      expect(card?.status).toBe("failed");
      expect(textOf(card?.content)).toContain("timed out after 300 ms and was killed");
      expect(services.calls).toContain("terminal/kill");
      expect(services.calls.at(-1)).toBe("terminal/release");
      expect(services.running()).toEqual([]);
    } finally {
      await c.close();
    }
  }, 60_000);

  test("run_in_background starts the command in the client's terminal; its output is recorded as it flows; TaskStop kills and releases the terminal; a reload equals live", async () => {
    const box = sandbox("scripted/call");
    const services = new ClientServices({ terminal: true });
    const c = await connectProcess(box.env, { ...allow, services });
    let sessionId = "";
    try {
      ({ sessionId } = await newSession(c.ctx, box.workspace));
      await prompt(
        c.ctx,
        sessionId,
        'Bash {"command": "for i in $(seq 300); do echo tick$i; sleep 0.1; done", "run_in_background": true}',
      );
      const jobCard = () => cards(c.client.view(sessionId))[0];
      const answer = /with ID: (\S+)\. Output is being written to: (\S+\.output)\./.exec(textOf(jobCard()?.content));
      const jobId = answer?.[1] ?? "";
      expect(jobId).toStartWith("job_");
      expect(services.calls[0]).toBe("terminal/create");
      // The card grows while the job runs, from output the agent read from the terminal.
      await until(() => textOf(jobCard()?.content).includes("tick3\n"), "the job's output on its card", 15_000);
      expect(jobCard()?.status).toBe("in_progress");
      expect(services.calls).toContain("terminal/output");
      await prompt(c.ctx, sessionId, `TaskStop {"task_id": "${jobId}"}`);
      expect(textOf(cards(c.client.view(sessionId))[1]?.content)).toContain(`Job ${jobId} was stopped`);
      expect(jobCard()?.status).toBe("completed");
      expect(textOf(jobCard()?.content)).toContain(`Background job ${jobId} was stopped by the model.`);
      const kill = services.calls.indexOf("terminal/kill");
      expect(kill).toBeGreaterThan(0);
      expect(services.calls.indexOf("terminal/release")).toBeGreaterThan(kill);
      expect(services.running()).toEqual([]);
    } finally {
      await c.close();
    }
    const facts = await exportedFacts(box.env, sessionId);
    expect(ofKind(facts, "job_started")[0]).toMatchObject({ terminalId: "term-1" });
    expect(recordedText(facts)).toStartWith("tick1\ntick2\ntick3\n");
    expect(ofKind(facts, "job_ended")).toEqual([expect.objectContaining({ by: "model" }) as FactOf<"job_ended">]);
    await expectReloadEqualsLive(box, sessionId, c.client.view(sessionId));
  }, 60_000);

  test("a job in the client's terminal ends with its agent: the agent's exit (SIGTERM) kills and releases the terminal and records the end", async () => {
    const { box, services, c, sessionId } = await sleepingInTerminal();
    c.agent!.kill("SIGTERM");
    await c.agent!.exited;
    expect(services.calls).toContain("terminal/kill");
    expect(services.calls.at(-1)).toBe("terminal/release");
    expect(services.running()).toEqual([]);
    expect(ofKind(await exportedFacts(box.env, sessionId), "job_ended")).toEqual([
      expect.objectContaining({ by: "session" }) as FactOf<"job_ended">,
    ]);
  }, 60_000);

  test("a job in the client's terminal at a kill -9 of its agent is shown ended by the next load and recorded ended at the next write; the terminal is the client's: the load kills nothing", async () => {
    const { box, services, c: live, sessionId } = await sleepingInTerminal();
    live.agent!.kill(9);
    await live.agent!.exited;
    const [job] = ofKind(await exportedFacts(box.env, sessionId), "job_started");
    // The terminal is the client's: doctor has no process of this machine to report.
    const doctor = await runCli(["doctor", "--json"], box.env);
    expect(doctor.stdout.split("\n").find((l) => l.includes('"background jobs"'))).toContain('"ok"');

    const reopened = await connectProcess(box.env, { ...allow, services: new ClientServices({ terminal: true }) });
    try {
      await load(reopened.ctx, sessionId, box.workspace);
      const [card] = cards(reopened.client.view(sessionId));
      expect(card?.status).toBe("failed");
      expect(textOf(card?.content)).toContain(`Interrupted: verbatim stopped while background job ${job!.jobId} ran`);
      expect(services.running()).toEqual(["term-1"]);
      expect(ofKind(await exportedFacts(box.env, sessionId), "job_ended")).toEqual([]);
      await prompt(reopened.ctx, sessionId, 'Read {"file_path": "README.md"}');
      expect(ofKind(await exportedFacts(box.env, sessionId), "job_ended")).toEqual([
        expect.objectContaining({ jobId: job!.jobId, by: "interrupted" }) as FactOf<"job_ended">,
      ]);
    } finally {
      await reopened.close();
      await live.close();
      services.killAll();
    }
  }, 60_000);
});
