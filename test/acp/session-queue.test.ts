/** Lifecycle requests on one session run one at a time, in arrival order; other sessions never wait. */
import { describe, expect, test } from "bun:test";
import { SessionQueue } from "../../src/acp/session-queue.ts";

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("SessionQueue", () => {
  test("tasks on one session run one at a time, in the order they arrived", async () => {
    const queue = new SessionQueue();
    const events: string[] = [];
    const task = (name: string, ms: number) => async () => {
      events.push(`start ${name}`);
      await later(null, ms);
      events.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      queue.run("s", task("a", 20)),
      queue.run("s", task("b", 1)),
      queue.run("s", task("c", 5)),
    ]);
    expect(results).toEqual(["a", "b", "c"]);
    expect(events).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });

  test("a task on another session does not wait", async () => {
    const queue = new SessionQueue();
    const events: string[] = [];
    const slow = queue.run("s1", async () => {
      await later(null, 30);
      events.push("s1");
    });
    await queue.run("s2", async () => {
      events.push("s2");
    });
    await slow;
    expect(events).toEqual(["s2", "s1"]);
  });

  test("a task that fails rejects its own caller only; the next one runs", async () => {
    const queue = new SessionQueue();
    const failed = queue.run("s", () => Promise.reject(new Error("refused")));
    const next = queue.run("s", async () => "ran");
    await expect(failed).rejects.toThrow("refused");
    expect(await next).toBe("ran");
  });

  test("settled waits for the tasks queued so far, and is immediate when there are none", async () => {
    const queue = new SessionQueue();
    let done = false;
    void queue.run("s", async () => {
      await later(null, 10);
      done = true;
    });
    await queue.settled("s");
    expect(done).toBe(true);
    let immediate = false;
    await queue.settled("other").then(() => (immediate = true));
    expect(immediate).toBe(true);
  });
});
