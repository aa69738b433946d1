/**
 * `_verbatim/session/rewind` (the session-rewind RFD's `session/rewind`): the session goes back to
 * a message; the client drops what the answer names, and a reload (from the facts, or from the
 * replay cache) shows exactly what the client then shows. The journal keeps every record.
 */
import { describe, expect, test } from "bun:test";
import { comparable } from "../../src/cli/demo.ts";
import { verifyReplayCache } from "../../src/cli/verify-replay-cache.ts";
import { openJournal } from "../../src/core/config/open-journal.ts";
import { readAll } from "../../src/journal/store.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import { reduce, type ViewModel } from "../../src/view/view-model.ts";
import { forkAt } from "../support/fork-at.ts";
import { connectInProcess, errorOf, load, newSession, prompt, until, type Connected } from "../support/acp-session.ts";
import { dropRetracted, editPrompt, rewind } from "../support/rewind.ts";
import { answerBefore, messageIds, viewCutAt } from "../support/view-cut.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

/** The session's view as a fresh process loads it (with the replay cache, or from the facts alone). */
export async function reloaded(box: Sandbox, sessionId: string, cache = true): Promise<ViewModel> {
  const fresh = await connectInProcess(cache ? box.env : { ...box.env, VERBATIM_REPLAY_CACHE: "off" });
  try {
    await load(fresh.ctx, sessionId, box.workspace);
  } finally {
    await fresh.close();
  }
  return fresh.client.view(sessionId);
}

async function demoSession(box: Sandbox, prompts = ["Give me an overview", "Read the missing file", "Once more"]) {
  const live = await connectInProcess(box.env);
  const sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
  for (const text of prompts) await prompt(live.ctx, sessionId, text);
  return { live, sessionId };
}

describe("a rewind to a turn's last answer", () => {
  test("names what the client drops: every message and card after it", async () => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box);
    try {
      const view = live.client.view(sessionId);
      const toMessageId = answerBefore(view, 1);
      const cut = viewCutAt(live.client.notifications, sessionId, toMessageId);
      const answer = await rewind(live.ctx, { sessionId, toMessageId });
      expect(answer.lastMessageId).toBe(toMessageId);
      expect(answer.remainingMessageCount).toBe(messageIds(cut, "user").length + messageIds(cut, "agent").length);
      dropRetracted(view, answer._meta.verbatim.retracted);
      expect(view.timeline).toEqual(cut.timeline);
    } finally {
      await live.close();
    }
  });

  test("a reload shows what the client shows after it, from the facts and from the replay cache", async () => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box);
    let view: ViewModel;
    try {
      view = live.client.view(sessionId);
      const answer = await rewind(live.ctx, { sessionId, toMessageId: answerBefore(view, 1) });
      dropRetracted(view, answer._meta.verbatim.retracted);
    } finally {
      await live.close();
    }
    expect(diffValues(comparable(view), comparable(await reloaded(box, sessionId, false)))).toEqual([]);
    expect(diffValues(comparable(view), comparable(await reloaded(box, sessionId)))).toEqual([]);
  });

  test("the journal keeps every record: the rewind is one more fact", async () => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box);
    const store = openJournal(box.env);
    try {
      const before = (await readAll(store, sessionId)).length;
      await rewind(live.ctx, { sessionId, toMessageId: answerBefore(live.client.view(sessionId), 1) });
      const after = await readAll(store, sessionId);
      expect(after.length).toBe(before + 1);
      expect(after.at(-1)?.fact.kind).toBe("session_rewound");
    } finally {
      await live.close();
      await store.close();
    }
  });

  test("the turns that follow are shown after what was kept, live and reloaded", async () => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box);
    let view: ViewModel;
    try {
      view = live.client.view(sessionId);
      const answer = await rewind(live.ctx, { sessionId, toMessageId: answerBefore(view, 1) });
      dropRetracted(view, answer._meta.verbatim.retracted);
      await prompt(live.ctx, sessionId, "Something else");
      await prompt(live.ctx, sessionId, "And again");
    } finally {
      await live.close();
    }
    expect(messageIds(view, "user").length).toBe(3);
    expect(diffValues(comparable(view), comparable(await reloaded(box, sessionId, false)))).toEqual([]);
    expect(diffValues(comparable(view), comparable(await reloaded(box, sessionId)))).toEqual([]);
  });

  test("the replay cache is stored again after it, and a load from it shows what the client shows", async () => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box);
    const store = openJournal(box.env);
    const view = live.client.view(sessionId);
    try {
      const answer = await rewind(live.ctx, { sessionId, toMessageId: answerBefore(view, 1) });
      dropRetracted(view, answer._meta.verbatim.retracted);
      await prompt(live.ctx, sessionId, "Something else");
      // The writer stores every row again under the rewind's key, off the turn's path.
      const rewoundRows = async () =>
        (await store.readReplayCache(sessionId)).filter((r) => r.capabilities.includes(";rewound="));
      for (let i = 0; i < 200 && (await rewoundRows()).length < 4; i++) await Bun.sleep(25);
      expect((await rewoundRows()).map((r) => r.fromSeq)[0]).toBe(1);
      expect((await rewoundRows()).length).toBe(4);
      expect((await verifyReplayCache(store, sessionId)).differences).toEqual([]);
    } finally {
      await live.close();
      await store.close();
    }
    expect(diffValues(comparable(view), comparable(await reloaded(box, sessionId)))).toEqual([]);
  });
});

describe("the replay cache after a rewind", () => {
  test("what was stored under the keys before it is dropped when the cache is stored again: one key is left", async () => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box);
    const store = openJournal(box.env);
    try {
      const keys = async () => (await store.replayCacheKeys(sessionId)).map((k) => k.capabilities);
      for (let i = 0; i < 200 && (await store.readReplayCache(sessionId)).length < 3; i++) await Bun.sleep(25);
      expect(await keys()).toEqual(["notices=0;compaction=0"]);
      const before = (await store.replayCacheSize(sessionId)).cacheBytes;
      const view = live.client.view(sessionId);
      await rewind(live.ctx, { sessionId, toMessageId: answerBefore(view, 1) });
      const rewoundKey = /;rewound=\d+$/;
      for (let i = 0; i < 200 && !(await keys()).every((k) => rewoundKey.test(k)); i++) await Bun.sleep(25);
      const left = await keys();
      expect(left).toHaveLength(1);
      expect(left[0]).toMatch(rewoundKey);
      expect((await store.replayCacheSize(sessionId)).cacheBytes).toBeLessThan(before);
      expect((await verifyReplayCache(store, sessionId)).differences).toEqual([]);
    } finally {
      await live.close();
      await store.close();
    }
  });
});

describe("a rewind it cannot make", () => {
  test.each([
    ["an id the session never sent", () => "msg_nonexistent"],
    ["a thought's id", (view: ViewModel) => messageIds(view, "thought")[0]!],
  ])("to %s is an invalid-params error", async (_what, pick) => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box);
    try {
      const toMessageId = pick(live.client.view(sessionId));
      const error = await errorOf(rewind(live.ctx, { sessionId, toMessageId }));
      expect(error.code).toBe(-32602);
    } finally {
      await live.close();
    }
  });

  test("to a message an earlier rewind took back is an invalid-params error", async () => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box);
    try {
      const view = live.client.view(sessionId);
      const later = answerBefore(view, 2);
      await rewind(live.ctx, { sessionId, toMessageId: answerBefore(view, 1) });
      expect((await errorOf(rewind(live.ctx, { sessionId, toMessageId: later }))).code).toBe(-32602);
    } finally {
      await live.close();
    }
  });

  test.each([
    ["no content", []],
    ["a text block without its text", [{ type: "text" }]],
  ])("an edit with %s is an invalid-params error", async (_what, newContent) => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box, ["Overview"]);
    try {
      const messageId = messageIds(live.client.view(sessionId), "user")[0]!;
      const error = await errorOf(editPrompt(live.ctx, { sessionId, messageId, newContent: newContent as never }));
      expect(error.code).toBe(-32602);
    } finally {
      await live.close();
    }
  });

  test("an edit of an agent message is an invalid-params error", async () => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box);
    try {
      const messageId = answerBefore(live.client.view(sessionId), 1);
      const error = await errorOf(
        editPrompt(live.ctx, { sessionId, messageId, newContent: [{ type: "text", text: "Hi" }] }),
      );
      expect(error.code).toBe(-32602);
    } finally {
      await live.close();
    }
  });
});

describe("a rewind during a running turn", () => {
  test("cancels the turn first, then rewinds; a reload shows what the client shows", async () => {
    const box = sandbox("scripted/slow");
    const live: Connected = await connectInProcess(box.env);
    let view: ViewModel;
    try {
      const sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
      await prompt(live.ctx, sessionId, "First");
      view = live.client.view(sessionId);
      const toMessageId = messageIds(view, "agent").at(-1)!;
      const running = prompt(live.ctx, sessionId, "Second");
      await until(
        () => messageIds(view, "user").length === 2 && messageIds(view, "thought").length === 2,
        "the second turn",
      );
      const answer = await rewind(live.ctx, { sessionId, toMessageId });
      expect((await running).stopReason).toBe("cancelled");
      expect(answer._meta.verbatim.cancelledTurnId).toBeString();
      dropRetracted(view, answer._meta.verbatim.retracted);
      expect(messageIds(view, "user").length).toBe(1);
      expect(diffValues(comparable(view), comparable(await reloaded(box, sessionId, false)))).toEqual([]);
      expect(diffValues(comparable(view), comparable(await reloaded(box, sessionId)))).toEqual([]);
      view = structuredClone(view);
    } finally {
      await live.close();
    }
  });
});

describe("a rewind of a forked session", () => {
  test("goes back within the fork, even to a message the fork copied; a reload of the fork shows what the client shows", async () => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box, ["Overview", "Notes?"]);
    let forked = "";
    let view: ViewModel;
    try {
      const messageId = answerBefore(live.client.view(sessionId), 1);
      forked = (await forkAt(live.ctx, { sessionId, cwd: box.workspace, mcpServers: [], messageId })).sessionId;
      // The client shows the fork as its source cut at the message, then what the fork adds.
      view = viewCutAt(live.client.notifications, sessionId, messageId);
      const own = live.client.view(forked);
      await prompt(live.ctx, forked, "On the fork");
      await prompt(live.ctx, forked, "Again on the fork");
      const last = await rewind(live.ctx, { sessionId: forked, toMessageId: messageIds(own, "agent").at(-1)! });
      expect(last._meta.verbatim.retracted).toEqual({ messageIds: [], toolCallIds: [] });
      const back = await rewind(live.ctx, { sessionId: forked, toMessageId: messageId });
      expect(back._meta.verbatim.retracted.messageIds).toEqual(Object.keys(own.messages));
      await prompt(live.ctx, forked, "Once more on the fork");
      dropRetracted(own, back._meta.verbatim.retracted);
      for (const n of live.client.notifications.filter((n) => n.sessionId === forked)) reduce(view, n.update);
      dropRetracted(view, back._meta.verbatim.retracted);
    } finally {
      await live.close();
    }
    expect(messageIds(view, "user")).toHaveLength(2);
    expect(diffValues(comparable(view), comparable(await reloaded(box, forked, false)))).toEqual([]);
    expect(diffValues(comparable(view), comparable(await reloaded(box, forked)))).toEqual([]);
  });
});

describe("a session reopened from its replay cache", () => {
  test("rewinds as one folded from its facts (its early records were never read)", async () => {
    const box = sandbox("scripted/demo");
    const { live, sessionId } = await demoSession(box);
    const store = openJournal(box.env);
    try {
      // The writer stores the turns' rows and state off the turns' path.
      for (let i = 0; i < 200 && (await store.readReplayCache(sessionId)).length < 3; i++) await Bun.sleep(25);
      expect((await store.readReplayCache(sessionId)).length).toBe(3);
    } finally {
      await live.close();
      await store.close();
    }
    const again = await connectInProcess(box.env);
    let view: ViewModel;
    try {
      await load(again.ctx, sessionId, box.workspace);
      view = again.client.view(sessionId);
      const answer = await rewind(again.ctx, { sessionId, toMessageId: answerBefore(view, 1) });
      expect(answer._meta.verbatim.retracted.messageIds.length).toBeGreaterThan(0);
      dropRetracted(view, answer._meta.verbatim.retracted);
    } finally {
      await again.close();
    }
    expect(messageIds(view, "user")).toHaveLength(1);
    expect(diffValues(comparable(view), comparable(await reloaded(box, sessionId, false)))).toEqual([]);
  });
});
