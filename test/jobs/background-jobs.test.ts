/**
 * Background commands, driven through a spawned agent and the scripted model (issue 53's list): a
 * loopback server started in the background and answered by a later call of the same turn, its
 * output read twice (each read's result recorded), stopped by the model, a reload equal to live;
 * a job alive at a `kill -9` of the agent, killed by the next load and shown ended, and listed by
 * doctor until then (SQLite and PostgreSQL); a session's delete and the agent's exit ending its
 * jobs; watch drawing a job's output; a foreground command moved to the background at its timeout,
 * and Claude Code's exceptions to that. The same in a client's terminal: client-terminal-jobs.test.ts.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { choose } from "../../src/client/view-client.ts";
import { comparable } from "../../src/cli/demo.ts";
import type { Fact, FactOf } from "../../src/journal/facts/index.ts";
import { jobStillRuns } from "../../src/core/jobs/orphan-jobs.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import { connectProcess, load, newSession, prompt, until } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import { exportedFacts, ofKind } from "../support/exported-facts.ts";
import { runCli } from "../support/cli-process.ts";
import { agentCommand } from "../../src/client/spawn-agent.ts";
import { sandbox } from "../support/workspace.ts";
import { ClientServices } from "../support/client-services.ts";
import { freshDatabase } from "../support/postgres-server.ts";
import { cards } from "../parity/harness.ts";

const allow = { policy: choose("allow_once") };

/** A loopback HTTP server in the runtime the tests run on: prints its port, logs each request. */
const SERVER = `${process.execPath} -e 'const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch(r) { console.log("GET " + new URL(r.url).pathname); return new Response("hello from the job"); } }); console.log("listening on " + s.port);'`;

/** The recorded result of each call of `name`, in order. */
function resultsOf(facts: Fact[], name: string): string[] {
  const ids = ofKind(facts, "tool_call_announced")
    .filter((f) => f.name === name)
    .map((f) => f.toolCallId);
  return ids.map((id) => ofKind(facts, "tool_call_finished").find((f) => f.toolCallId === id)?.result.text ?? "");
}

/** Whether the process the journal recorded for a job still runs as itself. */
const runs = (job: FactOf<"job_started">) => jobStillRuns(job);

describe("a background loopback server, as the model drives it through one turn", () => {
  const box = sandbox("scripted/background-server");
  let sessionId = "";
  let facts: (Fact & { at: string })[] = [];
  let liveView: ViewModel | undefined;

  // One turn: the model starts the server in the background, waits for it, reads its output file,
  // asks it over HTTP, reads the file again, and stops it (src/core/providers/scripted/job-scenarios.ts).
  beforeAll(async () => {
    const live = await connectProcess(box.env, allow);
    try {
      ({ sessionId } = await newSession(live.ctx, box.workspace));
      expect((await prompt(live.ctx, sessionId, SERVER)).stopReason).toBe("end_turn");
      liveView = live.client.view(sessionId);
    } finally {
      await live.close();
    }
    facts = await exportedFacts(box.env, sessionId);
  }, 60_000);

  test("run_in_background answers at once with the job's id and output file, and the job runs in a process of its own", () => {
    const [started] = ofKind(facts, "job_started");
    expect(started?.command).toBe(SERVER);
    expect(resultsOf(facts, "Bash")[0]).toBe(
      `Command running in the background with ID: ${started!.jobId}. Output is being written to: ${started!.outputPath}. ` +
        `Read that file (Read) for its output so far; stop it with TaskStop {"task_id": "${started!.jobId}"}.`,
    );
    expect(started?.pid).toBeGreaterThan(0);
  });

  test("the server answers a later call of the same turn over loopback HTTP", () => {
    expect(resultsOf(facts, "Bash").some((r) => r.includes("hello from the job"))).toBe(true);
  });

  test("its output is recorded as it flows", () => {
    const recorded = ofKind(facts, "job_output")
      .map((f) => (f.output as { resource: { text: string } }).resource.text)
      .join("");
    expect(recorded).toContain("listening on");
    expect(recorded).toContain("GET /hello");
  });

  test("each read of its output file is recorded with what it returned: the second saw the request the server logged", () => {
    const reads = resultsOf(facts, "Read");
    expect(reads).toHaveLength(2);
    expect(reads[0]).toContain("listening on");
    expect(reads[0]).not.toContain("GET /hello");
    expect(reads[1]).toContain("GET /hello");
  });

  test("reading its output file asks nothing, though the file lies outside the session's directories", () => {
    const reads = ofKind(facts, "tool_call_announced").filter((f) => f.name === "Read");
    expect(reads).toHaveLength(2);
    const asked = new Set(ofKind(facts, "permission_requested").map((f) => f.toolCallId));
    expect(reads.filter((f) => asked.has(f.toolCallId))).toEqual([]);
    // The Bash calls were asked about, as any command is.
    expect(asked.size).toBeGreaterThan(0);
  });

  test("the model stops it with TaskStop: the job's card settles, saying so, with the output it recorded", () => {
    const [started] = ofKind(facts, "job_started");
    expect(resultsOf(facts, "TaskStop")[0]).toContain(`Job ${started!.jobId} was stopped`);
    expect(ofKind(facts, "job_ended")).toEqual([
      expect.objectContaining({ jobId: started!.jobId, by: "model" }) as FactOf<"job_ended">,
    ]);
    expect(runs(started!)).toBe(false);
    const [serverCard] = cards(liveView!);
    expect(serverCard?.status).toBe("completed");
    expect(textOf(serverCard?.content)).toContain("GET /hello");
    expect(textOf(serverCard?.content)).toContain(`Background job ${started!.jobId} was stopped by the model.`);
  });

  test("a reload shows the job's card, its output and every read exactly as live, and runs nothing", async () => {
    const readCards = () => cards(liveView!).filter((c) => c.title.startsWith("Read"));
    expect(readCards().map((c) => textOf(c.content))).toEqual([
      expect.stringContaining("listening on") as unknown as string,
      expect.stringContaining("GET /hello") as unknown as string,
    ]);
    // Twice: the first load writes the replay cache, the second reads from it.
    for (let i = 0; i < 2; i++) {
      const again = await connectProcess(box.env, allow);
      try {
        await load(again.ctx, sessionId, box.workspace);
        expect(diffValues(comparable(liveView!), comparable(again.client.view(sessionId)))).toEqual([]);
      } finally {
        await again.close();
      }
    }
    // Nothing was started nor recorded by the loads.
    expect(await exportedFacts(box.env, sessionId)).toEqual(facts);
  }, 60_000);
});

describe("background jobs", () => {
  test("with a client that offers file access, a job's output file is read from disk, not through the editor", async () => {
    const box = sandbox("scripted/call");
    const services = new ClientServices({ fs: true });
    const c = await connectProcess(box.env, { ...allow, services });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, 'Bash {"command": "echo from the job", "run_in_background": true}');
      const [started] = ofKind(await exportedFacts(box.env, sessionId), "job_started");
      await until(() => existsSync(started!.outputPath) && readFileSync(started!.outputPath, "utf8") !== "", "output");
      await prompt(c.ctx, sessionId, `Read ${JSON.stringify({ file_path: started!.outputPath })}`);
      expect(textOf(cards(c.client.view(sessionId))[1]?.content)).toContain("from the job");
      expect(services.calls).not.toContain("fs/read_text_file");
    } finally {
      await c.close();
    }
  }, 60_000);

  test("a job alive when the agent is killed (kill -9) is killed by the next load, shown ended, and recorded ended at the next write", async () => {
    const box = sandbox("scripted/call");
    const live = await connectProcess(box.env, allow);
    const { sessionId } = await newSession(live.ctx, box.workspace);
    await prompt(live.ctx, sessionId, 'Bash {"command": "sleep 300", "run_in_background": true}');
    live.agent!.kill(9);
    await live.agent!.exited;
    const [job] = ofKind(await exportedFacts(box.env, sessionId), "job_started");
    expect(runs(job!)).toBe(true);
    // doctor names the job no process answers for.
    const doctor = await runCli(["doctor", "--json"], box.env);
    const jobsCheck = doctor.stdout.split("\n").find((l) => l.includes('"background jobs"'));
    expect(JSON.parse(jobsCheck ?? "{}")).toMatchObject({ status: "warn" });
    expect(jobsCheck).toContain(job!.jobId);

    const reopened = await connectProcess(box.env, allow);
    try {
      await load(reopened.ctx, sessionId, box.workspace);
      const [card] = cards(reopened.client.view(sessionId));
      expect(card?.status).toBe("failed");
      expect(textOf(card?.content)).toContain(`Interrupted: verbatim stopped while background job ${job!.jobId} ran`);
      for (let i = 0; i < 200 && runs(job!); i++) await Bun.sleep(25);
      expect(runs(job!)).toBe(false);
      // Loading wrote nothing; the session's next write records the job's end first.
      expect(ofKind(await exportedFacts(box.env, sessionId), "job_ended")).toEqual([]);
      await prompt(reopened.ctx, sessionId, 'Read {"file_path": "README.md"}');
      expect(ofKind(await exportedFacts(box.env, sessionId), "job_ended")).toEqual([
        expect.objectContaining({ jobId: job!.jobId, by: "interrupted" }) as FactOf<"job_ended">,
      ]);
    } finally {
      await reopened.close();
    }
  }, 60_000);

  test("doctor lists a job still running from a session no process holds on a PostgreSQL journal too, and no more once a load stopped it", async () => {
    const box = sandbox("scripted/call");
    const env = { ...box.env, VERBATIM_JOURNAL: await freshDatabase() };
    const live = await connectProcess(env, allow);
    const { sessionId } = await newSession(live.ctx, box.workspace);
    await prompt(live.ctx, sessionId, 'Bash {"command": "sleep 300", "run_in_background": true}');
    live.agent!.kill(9);
    await live.agent!.exited;
    const [job] = ofKind(await exportedFacts(env, sessionId), "job_started");
    expect(runs(job!)).toBe(true);
    const jobsCheck = async () => {
      const doctor = await runCli(["doctor", "--json"], env);
      const line = doctor.stdout.split("\n").find((l) => l.includes('"background jobs"'));
      return JSON.parse(line ?? "{}") as { status?: string; detail?: string };
    };
    const before = await jobsCheck();
    expect(before.status).toBe("warn");
    expect(JSON.stringify(before)).toContain(`${job!.jobId} of ${sessionId} (process group ${job!.pid}: sleep 300)`);

    const reopened = await connectProcess(env, allow);
    try {
      await load(reopened.ctx, sessionId, box.workspace);
      for (let i = 0; i < 200 && runs(job!); i++) await Bun.sleep(25);
      expect(runs(job!)).toBe(false);
    } finally {
      await reopened.close();
    }
    expect(await jobsCheck()).toMatchObject({ status: "ok" });
  }, 60_000);

  test("deleting a session whose agent was killed kills the jobs it left running, and removes their output files", async () => {
    const box = sandbox("scripted/call");
    const live = await connectProcess(box.env, allow);
    const { sessionId } = await newSession(live.ctx, box.workspace);
    await prompt(live.ctx, sessionId, 'Bash {"command": "sleep 300", "run_in_background": true}');
    live.agent!.kill(9);
    await live.agent!.exited;
    const [job] = ofKind(await exportedFacts(box.env, sessionId), "job_started");
    expect(runs(job!)).toBe(true);
    expect(existsSync(job!.outputPath)).toBe(true);
    expect((await runCli(["delete", sessionId], box.env)).code).toBe(0);
    for (let i = 0; i < 200 && runs(job!); i++) await Bun.sleep(25);
    expect(runs(job!)).toBe(false);
    expect(existsSync(job!.outputPath)).toBe(false);
  }, 60_000);

  test("watch draws a job's output as it is recorded, between turns too", async () => {
    const box = sandbox("scripted/call");
    const c = await connectProcess(box.env, allow);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      const watcher = Bun.spawn([...agentCommand(), "watch", sessionId], {
        env: { ...process.env, ...box.env, NO_COLOR: "1" },
        stdout: "ignore",
        stderr: "pipe",
      });
      let stderr = "";
      const watching = (async () => {
        const decoder = new TextDecoder();
        for await (const chunk of watcher.stderr) {
          stderr += decoder.decode(chunk, { stream: true });
          if (stderr.includes("tick3")) watcher.kill("SIGINT");
        }
        return { code: await watcher.exited, stderr };
      })();
      // Watching from before the prompt: the job's output is drawn as it is recorded.
      await until(() => stderr.includes(`watching ${sessionId}`), "the watcher to follow the session");
      await prompt(
        c.ctx,
        sessionId,
        'Bash {"command": "for i in 1 2 3; do echo tick$i; sleep 0.4; done", "run_in_background": true}',
      );
      const watched = await watching;
      expect(watched.code).toBe(130);
      expect(watched.stderr).toMatch(/\[job_\w+\] tick1\n/);
      expect(watched.stderr).toMatch(/\[job_\w+\] tick3\n/);
    } finally {
      await c.close();
    }
  }, 60_000);

  test("a job ends with its agent: the agent's exit (SIGTERM) kills its process group and records its end", async () => {
    const box = sandbox("scripted/call");
    const c = await connectProcess(box.env, allow);
    const { sessionId } = await newSession(c.ctx, box.workspace);
    await prompt(c.ctx, sessionId, 'Bash {"command": "sleep 300", "run_in_background": true}');
    const [job] = ofKind(await exportedFacts(box.env, sessionId), "job_started");
    expect(runs(job!)).toBe(true);
    c.agent!.kill("SIGTERM");
    await c.agent!.exited;
    expect(runs(job!)).toBe(false);
    expect(ofKind(await exportedFacts(box.env, sessionId), "job_ended")).toEqual([
      expect.objectContaining({ jobId: job!.jobId, by: "session" }) as FactOf<"job_ended">,
    ]);
  }, 60_000);

  test("a foreground command that reaches its timeout moves to the background, and its card grows until it ends", async () => {
    const box = sandbox("scripted/call");
    const c = await connectProcess(box.env, allow);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, 'Bash {"command": "echo before; sleep 1; echo after", "timeout": 300}');
      const [card] = cards(c.client.view(sessionId));
      expect(textOf(card?.content)).toContain(
        "Command did not complete within its 300 ms timeout and was moved to the background",
      );
      await until(() => cards(c.client.view(sessionId))[0]?.status === "completed", "the moved job to end");
      const ended = textOf(cards(c.client.view(sessionId))[0]?.content);
      expect(ended).toContain("before\nafter");
      expect(ended).toMatch(/Background job \S+ ended: exit code 0\./);
    } finally {
      await c.close();
    }
  }, 60_000);

  test("as in Claude Code, a command starting with sleep, or running git, is killed at its timeout, not moved", async () => {
    const box = sandbox("scripted/call");
    const c = await connectProcess(box.env, allow);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, 'Bash {"command": "sleep 5", "timeout": 300}');
      await prompt(c.ctx, sessionId, 'Bash {"command": "echo start; git --version && sleep 5", "timeout": 300}');
      for (const card of cards(c.client.view(sessionId))) {
        expect(card.status).toBe("failed");
        expect(textOf(card.content)).toContain("timed out after 300 ms and was killed");
      }
      expect(cards(c.client.view(sessionId))).toHaveLength(2);
      expect(ofKind(await exportedFacts(box.env, sessionId), "job_started")).toEqual([]);
    } finally {
      await c.close();
    }
  }, 60_000);
});
