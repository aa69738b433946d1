/** The attach extension methods as a client calls them, and the journal positions a follower is sent. */
import type { ClientContext, SessionNotification } from "@agentclientprotocol/sdk";
import { ATTACH_METHOD, DETACH_METHOD, type AttachParams } from "../../src/acp/attach-params.ts";

export type AttachAnswer = {
  sessionId: string;
  role: "observer";
  position: number;
  writer: { pid: number; host?: string } | null;
};

const send = (ctx: ClientContext) =>
  ctx.request.bind(ctx) as unknown as <T>(method: string, params: unknown) => Promise<T>;

export const attach = (ctx: ClientContext, params: AttachParams | Record<string, unknown>) =>
  send(ctx)<AttachAnswer>(ATTACH_METHOD, params);

export const detach = (ctx: ClientContext, sessionId: string) => send(ctx)<object>(DETACH_METHOD, { sessionId });

/** The journal position a live update carries (`_meta.verbatim.position`), if any. */
export function positionOf(notification: SessionNotification): number | undefined {
  const verbatim = notification._meta?.verbatim as { position?: unknown } | undefined;
  return typeof verbatim?.position === "number" ? verbatim.position : undefined;
}
