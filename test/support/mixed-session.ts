/**
 * A recorded session with one of everything `verbatim show` must draw: thinking, a plan, a read,
 * an edit that asked and was allowed, a command that asked and ran, and a refused edit. Built
 * through the real ACP path in process with the scripted scenarios, switching the model between
 * prompts.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { choose } from "../../src/client/view-client.ts";
import { connectInProcess, newSession, prompt } from "./acp-session.ts";
import type { Sandbox } from "./workspace.ts";

/** Runs the prompts in `box` and returns the session id and what the client was shown live. */
export async function mixedSession(box: Sandbox) {
  // Allow everything but the second edit (the scenario's edit of the fourth line).
  let edits = 0;
  const policy = (request: RequestPermissionRequest) =>
    choose(request.toolCall.kind === "edit" && ++edits === 2 ? "reject_once" : "allow_once")(request);
  const c = await connectInProcess(box.env, { policy });
  try {
    const { sessionId } = await newSession(c.ctx, box.workspace);
    const use = (model: string) =>
      c.ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: model });
    await use("scripted/thinking");
    await prompt(c.ctx, sessionId, "Think first");
    await use("scripted/plan");
    await prompt(c.ctx, sessionId, "Plan it");
    await use("scripted/edit");
    await prompt(c.ctx, sessionId, "Fix the third line");
    await prompt(c.ctx, sessionId, "And the fourth");
    await use("scripted/command");
    await prompt(c.ctx, sessionId, "echo hello; echo oops >&2");
    return { sessionId, live: c.client.view(sessionId) };
  } finally {
    await c.close();
  }
}
