/**
 * `verbatim run`: one prompt through the agent, headless. It goes through the real ACP path in
 * process (the SDK client connected to the agent app), streams a readable transcript (or JSON
 * lines of updates), and exits with a code that reflects how the turn ended.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { RequestPermissionRequest, StopReason } from "@agentclientprotocol/sdk";
import { isAbsolute, resolve } from "node:path";
import { createAgentApp } from "../acp/agent-app.ts";
import { choose, ViewClient, type PermissionPolicy } from "../client/view-client.ts";
import { engineDeps } from "../core/engine-deps.ts";
import { LivePrinter } from "./live-printer.ts";

export type RunOptions = {
  prompt: string;
  model?: string;
  cwd?: string;
  session?: string;
  approve: "all" | "edits" | "none";
  json: boolean;
  /** Run project hooks in the workspace even if it is not in the trusted folders. */
  trust?: boolean;
};

/** Exit codes: how the turn ended. */
export const exitCodes: Record<StopReason | "error", number> = {
  end_turn: 0,
  error: 1,
  refusal: 3,
  max_tokens: 4,
  max_turn_requests: 5,
  cancelled: 130,
};

const policies: Record<RunOptions["approve"], PermissionPolicy> = {
  all: choose("allow_once"),
  none: choose("reject_once"),
  edits: (request: RequestPermissionRequest) =>
    (request.toolCall.kind === "edit" ? choose("allow_once") : choose("reject_once"))(request),
};

export async function run(options: RunOptions): Promise<number> {
  const env = { ...process.env, ...(options.model ? { VERBATIM_MODEL: options.model } : {}) };
  const cwd = options.cwd ? (isAbsolute(options.cwd) ? options.cwd : resolve(options.cwd)) : process.cwd();
  const deps = engineDeps(env, { trust: options.trust ?? false });
  const { inMemory, closeAll } = createAgentApp(deps);
  const stdout = (text: string) => process.stdout.write(text);
  const stderr = (text: string) => process.stderr.write(text);
  // With --json, stdout carries only JSON lines; progress still goes to stderr.
  const printer = new LivePrinter(options.json ? () => {} : stdout, stderr);
  const policy = policies[options.approve];
  const client = new ViewClient(async (request) => {
    const response = await policy(request);
    printer.permission(request, response, options.approve);
    return response;
  });
  client.onUpdate = (n) => {
    if (options.json) stdout(`${JSON.stringify(n)}\n`);
    printer.print(n.update);
  };
  const ticker = setInterval(() => printer.tick(), 1000);
  const connection = client.app().connect(inMemory());
  const agent = connection.agent;
  let sessionId = options.session ?? "";
  const onSigint = () => {
    if (sessionId) void agent.notify(acp.methods.agent.session.cancel, { sessionId });
  };
  process.on("SIGINT", onSigint);
  try {
    await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    if (options.session) {
      await agent.request(acp.methods.agent.session.resume, { sessionId, cwd, mcpServers: [] });
    } else {
      sessionId = (await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId;
    }
    const { stopReason } = await agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: options.prompt }],
    });
    printer.finish();
    report(options.json, sessionId, stopReason);
    return exitCodes[stopReason];
  } catch (error) {
    printer.finish();
    const message = error instanceof Error ? error.message : String(error);
    stderr(`verbatim: ${message}\n`);
    if (sessionId) report(options.json, sessionId, "error");
    return exitCodes.error;
  } finally {
    clearInterval(ticker);
    process.off("SIGINT", onSigint);
    await closeAll();
    connection.close();
    await deps.store.close();
  }
}

function report(json: boolean, sessionId: string, stopReason: StopReason | "error"): void {
  if (json) process.stdout.write(`${JSON.stringify({ sessionId, stopReason })}\n`);
  process.stderr.write(`session ${sessionId} (${stopReason}); continue with: verbatim run --session ${sessionId} "..."\n`);
}
