/** The attach extension methods as a client calls them, and the journal positions a follower is sent. */
import type { ClientContext, SessionNotification } from "@agentclientprotocol/sdk";
import { expect } from "bun:test";
import { choose } from "../../src/client/view-client.ts";
import { comparable } from "../../src/cli/demo.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import { connectProcess, load, until, type Connected } from "./acp-session.ts";
import type { Sandbox } from "./workspace.ts";
import {
  ATTACH_METHOD,
  DETACH_METHOD,
  type ExtensionRequestParams,
  type ExtensionResult,
  requestExtension,
} from "../../src/protocol/extensions.ts";

export type AttachAnswer = ExtensionResult<typeof ATTACH_METHOD>;

/** Params the schema refuses are sent as they are (the agent's answer to them is what a test looks at). */
export const attach = (
  ctx: ClientContext,
  params: ExtensionRequestParams<typeof ATTACH_METHOD> | Record<string, unknown>,
): Promise<AttachAnswer> => ctx.request<AttachAnswer>(ATTACH_METHOD, params);

export const detach = (ctx: ClientContext, sessionId: string) => requestExtension(ctx, DETACH_METHOD, { sessionId });

/** The journal position a live update carries (`_meta.verbatim.position`), if any. */
export function positionOf(notification: SessionNotification): number | undefined {
  const verbatim = notification._meta?.verbatim as { position?: unknown } | undefined;
  return typeof verbatim?.position === "number" ? verbatim.position : undefined;
}

export const sameView = (a: Connected, b: Connected, sessionId: string) =>
  diffValues(comparable(a.client.view(sessionId)), comparable(b.client.view(sessionId)));

/** Waits until `b` shows what `a` shows of the session, then checks it field by field. */
export async function expectSameView(a: Connected, b: Connected, sessionId: string): Promise<void> {
  await until(
    () => sameView(a, b, sessionId).length === 0,
    "the follower to show what the writer's client shows",
  ).catch(() => undefined);
  expect(sameView(a, b, sessionId)).toEqual([]);
}

/** A writer's client (answering permissions allow once) and a follower's, each in its own verbatim process. */
export async function withClients<T>(
  box: Sandbox,
  run: (writer: Connected, follower: Connected) => Promise<T>,
): Promise<T> {
  const writer = await connectProcess(box.env, { policy: choose("allow_once") });
  const follower = await connectProcess(box.env);
  try {
    return await run(writer, follower);
  } finally {
    await Promise.all([writer.close(), follower.close()]);
  }
}

/** A fresh process's client loads the session: it shows, field by field, what `follower` shows. */
export async function expectReloadShows(box: Sandbox, follower: Connected, sessionId: string): Promise<void> {
  const reopened = await connectProcess(box.env);
  try {
    await load(reopened.ctx, sessionId, box.workspace);
    expect(sameView(follower, reopened, sessionId)).toEqual([]);
  } finally {
    await reopened.close();
  }
}
