/**
 * Request parity: after a session is reopened in a fresh process, the next request the provider
 * receives is byte-for-byte the body a never-reloaded session sends. Two sessions play the same
 * first turn in one process; one goes on there, the other is reopened in a fresh process and
 * goes on; the fixture server compares what it received.
 */
import { describe, expect, test } from "bun:test";
import { connectProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { fixtureServer, type FixtureResponse } from "../support/fixture-server.ts";
import { kits, modelRef } from "../support/provider-kits.ts";
import { sandbox } from "../support/workspace.ts";

describe.each(kits)("$kind: request parity", (kit) => {
  test("the next request after a reopen equals the one a never-reloaded session sends", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(kit));
    Object.assign(box.env, kit.env(server));
    const readme = `${box.workspace}/README.md`;
    const firstTurn = (): FixtureResponse[] => [
      {
        sse: kit.thinkingThenCalls("Read it before answering.", "Let me look. ", [
          { id: "call_readme", name: "Read", input: { file_path: readme } },
        ]),
      },
      { sse: kit.thinkingThenText("Four lines; say so.", "It has four lines.") },
    ];
    const secondTurn = (): FixtureResponse => ({ sse: kit.text("You're welcome.") });

    const live = await connectProcess(box.env);
    let reopened = "";
    let neverReloaded: unknown;
    try {
      const kept = (await newSession(live.ctx, box.workspace)).sessionId;
      server.enqueue(...firstTurn(), secondTurn());
      await prompt(live.ctx, kept, "Read the README");
      await prompt(live.ctx, kept, "Thanks");
      neverReloaded = server.requests.at(-1)?.body;

      reopened = (await newSession(live.ctx, box.workspace)).sessionId;
      server.enqueue(...firstTurn());
      await prompt(live.ctx, reopened, "Read the README");
    } finally {
      await live.close();
    }

    const fresh = await connectProcess(box.env);
    try {
      await load(fresh.ctx, reopened, box.workspace);
      server.enqueue(secondTurn());
      expect((await prompt(fresh.ctx, reopened, "Thanks")).stopReason).toBe("end_turn");
    } finally {
      await fresh.close();
    }
    const afterReload = server.requests.at(-1)?.body;
    expect(server.requests.length).toBe(6);
    expect(afterReload).toEqual(neverReloaded);
    // The body carries the first turn whole: the call paired with its result by the provider's id.
    const body = JSON.stringify(afterReload);
    expect(body).toContain("call_readme");
    expect(body).toContain("Line three.");
    if (kit.kind === "anthropic") expect(body).toContain("sig-25-EqQBCkYIARgCIkD");
    if (kit.kind === "openai") expect(body).toContain("gAAAAB-encrypted-25");
  });
});
