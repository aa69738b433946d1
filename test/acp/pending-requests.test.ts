/** What is owed when input ends: the wait ends once every request is answered, or one waits on the client. */
import { describe, expect, test } from "bun:test";
import { PendingRequests } from "../../src/acp/pending-requests.ts";

const isSettled = async (p: Promise<void>) => {
  let settled = false;
  void p.then(() => (settled = true));
  await Bun.sleep(0);
  return settled;
};

describe("requests owed at end of input", () => {
  test("nothing owed: input ends at once", async () => {
    expect(await isSettled(new PendingRequests().drained())).toBe(true);
  });

  test("a request read and not answered holds the end until its answer is sent", async () => {
    const pending = new PendingRequests();
    pending.received({ id: 7, method: "session/load" });
    const drained = pending.drained();
    expect(await isSettled(drained)).toBe(false);
    pending.sent({ id: 7 });
    expect(await isSettled(drained)).toBe(true);
  });

  test("notifications and answers to other ids owe nothing", async () => {
    const pending = new PendingRequests();
    pending.received({ method: "session/cancel" });
    pending.received({ id: 1, method: "initialize" });
    pending.sent({ id: 2 });
    const drained = pending.drained();
    expect(await isSettled(drained)).toBe(false);
    pending.sent({ id: 1 });
    expect(await isSettled(drained)).toBe(true);
  });

  test("an answer that waits on the client (a request to it still open) ends the wait at once", async () => {
    const pending = new PendingRequests();
    pending.received({ id: 1, method: "session/prompt" });
    pending.sent({ id: 0, method: "session/request_permission" });
    expect(await isSettled(pending.drained())).toBe(true);
  });
});
