/** A load's cached lines on their way to the client (src/acp/paced-lines.ts). */
import { describe, expect, test } from "bun:test";
import type { AgentContext } from "@agentclientprotocol/sdk/unstable";
import { pacedLines } from "../../src/acp/paced-lines.ts";
import { UpdateSender } from "../../src/acp/update-sender.ts";

/** A client whose notifications are written at once, or held until `release` (a client not reading). */
function fakeClient() {
  let held: PromiseWithResolvers<void> | undefined;
  const client = {
    notify: () => held?.promise ?? Promise.resolve(),
  } as unknown as AgentContext;
  return {
    client,
    hold: () => {
      held = Promise.withResolvers<void>();
    },
    release: () => held?.resolve(),
  };
}

describe("paced cached lines", () => {
  test("each send is followed by a turn of the event loop, so the transport writes while the next rows are read", async () => {
    const { client } = fakeClient();
    const send = pacedLines(new UpdateSender(client), undefined);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    await send(["a\n"]);
    expect(turned).toBe(true);
  });

  test("with a few sends waiting for a client that does not read, the next send waits for it", async () => {
    const fake = fakeClient();
    const send = pacedLines(new UpdateSender(fake.client), undefined);
    fake.hold();
    for (let i = 0; i < 3; i++) await send([`${i}\n`]);
    let sent = false;
    void send(["last\n"]).then(() => {
      sent = true;
    });
    await Bun.sleep(20);
    expect(sent).toBe(false);
    fake.release();
    await Bun.sleep(5);
    expect(sent).toBe(true);
  });

  test("a cancelled load sends nothing more", () => {
    const fake = fakeClient();
    const controller = new AbortController();
    const send = pacedLines(new UpdateSender(fake.client), controller.signal);
    controller.abort();
    expect(() => send(["a\n"])).toThrow();
  });
});
