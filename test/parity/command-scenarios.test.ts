/**
 * Commands, live versus reload: output recorded and shown as text with the exit status, in a
 * local process group or in the client's terminal (shown live, never replayed); failures and
 * cancels shown the same after reload.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { choose } from "../../src/client/view-client.ts";
import { prompt, until } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import { ClientServices } from "../support/client-services.ts";
import { cards, parity, texts } from "./harness.ts";

const cardTexts = (ns: SessionNotification[]) =>
  ns.map((n) => n.update).flatMap((u) => (u.sessionUpdate === "tool_call_update" ? [textOf(u.content ?? [])] : []));

const terminalsShown = (ns: SessionNotification[]) =>
  ns
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === "tool_call_update" && (u.content ?? []).some((c) => c.type === "terminal"))
    .length;

const allow = { policy: choose("allow_once") };

describe("commands run as local processes", () => {
  test("a command's output and exit status become the card's content", async () => {
    const r = await parity(
      "scripted/command",
      async ({ ctx, sessionId }) => {
        expect((await prompt(ctx, sessionId, "echo hello; echo world >&2")).stopReason).toBe("end_turn");
      },
      allow,
    );
    const [card] = cards(r.live);
    expect(card).toMatchObject({
      name: "Bash",
      kind: "execute",
      title: "echo hello; echo world >&2",
      status: "completed",
    });
    expect(textOf(card?.content)).toContain("hello\nworld\n");
    expect(textOf(card?.content)).toContain("Exit code 0");
    expect(card?.rawOutput).toMatchObject({ exitCode: 0 });
    expect(texts(r.live, "agent").at(-1)).toBe("The command succeeded.");
    expect(r.differences).toEqual([]);
  });

  test("a command that fails ends failed with its output and exit code", async () => {
    const r = await parity(
      "scripted/command",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "echo 'no such target' >&2; exit 3");
      },
      allow,
    );
    const [card] = cards(r.live);
    expect(card?.status).toBe("failed");
    expect(textOf(card?.content)).toContain("no such target");
    expect(textOf(card?.content)).toContain("Exit code 3");
    expect(texts(r.live, "agent").at(-1)).toStartWith("The command did not succeed: no such target");
    expect(r.differences).toEqual([]);
  });

  test("a cancel during a running command kills it; the output so far stays", async () => {
    const r = await parity(
      "scripted/command",
      async ({ ctx, client, sessionId }) => {
        const turn = prompt(ctx, sessionId, "echo started; sleep 30; echo never");
        await until(
          () => cardTexts(client.notifications).some((t) => t.includes("started")),
          "the command's first output",
        );
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
        expect((await turn).stopReason).toBe("cancelled");
      },
      allow,
    );
    const [card] = cards(r.live);
    expect(card?.status).toBe("failed");
    expect(textOf(card?.content)).toContain("started");
    expect(textOf(card?.content)).not.toContain("never");
    expect(textOf(card?.content)).toContain("Stopped: the user cancelled the command");
    expect(r.differences).toEqual([]);
  });
});

describe("commands run in the client's terminal", () => {
  test("the terminal is shown live; the recorded output replaces it, and a reload shows only that", async () => {
    const services = new ClientServices({ terminal: true });
    const r = await parity(
      "scripted/command",
      async ({ ctx, sessionId }) => {
        expect((await prompt(ctx, sessionId, "echo from the terminal")).stopReason).toBe("end_turn");
      },
      { ...allow, services },
    );
    const [card] = cards(r.live);
    expect(card?.status).toBe("completed");
    expect(textOf(card?.content)).toContain("from the terminal");
    expect(textOf(card?.content)).toContain("Exit code 0");
    expect(card?.content?.some((c) => c.type === "terminal")).toBe(false);
    expect(terminalsShown(r.liveNotifications)).toBe(1);
    expect(terminalsShown(r.reloadNotifications)).toBe(0);
    expect(services.calls).toEqual([
      "terminal/create",
      "terminal/wait_for_exit",
      "terminal/output",
      "terminal/release",
    ]);
    expect(r.reloadAsked).toBe(0);
    expect(r.differences).toEqual([]);
  });

  test("a failing command in a terminal ends failed with its exit code", async () => {
    const services = new ClientServices({ terminal: true });
    const r = await parity(
      "scripted/command",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "echo broken; exit 7");
      },
      { ...allow, services },
    );
    const [card] = cards(r.live);
    expect(card?.status).toBe("failed");
    expect(textOf(card?.content)).toContain("broken");
    expect(textOf(card?.content)).toContain("Exit code 7");
    expect(r.differences).toEqual([]);
  });

  test("a cancel kills the command in the terminal and releases it", async () => {
    const services = new ClientServices({ terminal: true });
    const r = await parity(
      "scripted/command",
      async ({ ctx, client, sessionId }) => {
        const turn = prompt(ctx, sessionId, "echo started; sleep 30");
        await until(() => terminalsShown(client.notifications) > 0, "the terminal in the card");
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
        expect((await turn).stopReason).toBe("cancelled");
      },
      { ...allow, services },
    );
    const [card] = cards(r.live);
    expect(card?.status).toBe("failed");
    expect(textOf(card?.content)).toContain("Stopped: the user cancelled the command");
    expect(services.calls).toContain("terminal/kill");
    expect(services.calls.at(-1)).toBe("terminal/release");
    expect(services.running()).toEqual([]);
    expect(r.differences).toEqual([]);
  });
});
