/**
 * `verbatim run`: one prompt through the agent, headless. It goes through the real ACP path in
 * process (the SDK client connected to the agent app), streams a readable transcript (or JSON
 * lines of updates), and exits with a code that reflects how the turn ended.
 *
 * Under --json, stdout holds one JSON object a line: each `session/update` notification as sent,
 * then exactly one last line, `{sessionId, stopReason}` for a turn that ended or
 * `{"error": {code, message, data?}, sessionId?}` for anything else.
 */
import * as acp from "@agentclientprotocol/sdk";
import type {
  ClientContext,
  RequestPermissionRequest,
  SessionConfigOption,
  StopReason,
} from "@agentclientprotocol/sdk";
import { createAgentApp } from "../acp/agent-app.ts";
import { choose, ViewClient, type PermissionPolicy } from "../client/view-client.ts";
import { parseModelRef } from "../core/config/model-ref.ts";
import { engineDeps } from "../core/engine-deps.ts";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { CliError, reportError } from "./cli-error.ts";
import { checkJournalPlace } from "./journal-access.ts";
import { providerStatus } from "./provider-status.ts";
import { LivePrinter } from "./live-printer.ts";
import type { Approve, RunOptions } from "./run-args.ts";
import { STDOUT_CLOSED_EXIT, StdoutSink } from "./stdout-sink.ts";

export type { RunOptions } from "./run-args.ts";

/** Exit codes: how the turn ended. */
export const exitCodes: Record<StopReason | "error", number> = {
  end_turn: 0,
  error: 1,
  refusal: 3,
  max_tokens: 4,
  max_turn_requests: 5,
  cancelled: 130,
};

const policies: Record<Approve, PermissionPolicy> = {
  all: choose("allow_once"),
  none: choose("reject_once"),
  edits: (request: RequestPermissionRequest) =>
    (request.toolCall.kind === "edit" ? choose("allow_once") : choose("reject_once"))(request),
};

export async function run(options: RunOptions): Promise<number> {
  const env = { ...process.env, ...(options.model ? { VERBATIM_MODEL: options.model } : {}) };
  const cwd = options.cwd;
  const sink = new StdoutSink();
  const stdout = (text: string) => sink.write(text);
  const stderr = (text: string) => process.stderr.write(text);
  let journal: string;
  try {
    journal = checkJournalPlace(env, { write: true });
  } catch (error) {
    sink.dispose();
    return reportError(error, { json: options.json, stdout });
  }
  const deps = engineDeps(env, { trust: options.trust });
  const { inMemory, closeAll } = createAgentApp(deps);
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
  /** The session, once it exists (created, or found and resumed). */
  let sessionId = "";
  const cancel = () => {
    if (sessionId) void agent.notify(acp.methods.agent.session.cancel, { sessionId });
  };
  // A reader that went away (`| head`) ends the turn; what streamed so far stays recorded.
  sink.onClosed(cancel);
  process.on("SIGINT", cancel);
  try {
    await agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    const existing = options.session ?? (options.continueLatest ? await latestSession(deps, cwd) : undefined);
    if (existing) {
      const { configOptions } = await agent.request(acp.methods.agent.session.resume, {
        sessionId: existing,
        cwd,
        mcpServers: [],
      });
      sessionId = existing;
      await applyChanges(agent, deps, sessionId, configOptions ?? [], options);
    } else {
      const ref = options.model ? parseModelRef(options.model) : undefined;
      if (options.model && ref && !deps.catalogFor(cwd).provider(ref))
        throw modelUnavailable(options.model, cwd, options.trust);
      sessionId = (await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId;
      if (options.mode)
        await agent.request(acp.methods.agent.session.setConfigOption, {
          sessionId,
          configId: "mode",
          value: options.mode,
        });
    }
    const { stopReason } = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: options.prompt });
    printer.finish();
    if (sink.closed) return closedEnd(sessionId);
    if (options.json) stdout(`${JSON.stringify({ sessionId, stopReason })}\n`);
    stderr(`session ${sessionId} (${stopReason}); continue with: verbatim run --session ${sessionId} "..."\n`);
    return exitCodes[stopReason];
  } catch (error) {
    printer.finish();
    if (sink.closed && sessionId) return closedEnd(sessionId);
    const exit = reportError(error, {
      json: options.json,
      ...(sessionId ? { sessionId } : {}),
      context: { journal },
      stdout,
    });
    if (sessionId) stderr(`session ${sessionId} (error); continue with: verbatim run --session ${sessionId} "..."\n`);
    return exit;
  } finally {
    clearInterval(ticker);
    process.off("SIGINT", cancel);
    sink.dispose();
    await closeAll();
    connection.close();
    await deps.store.close();
  }
}

function closedEnd(sessionId: string): number {
  process.stderr.write(
    `session ${sessionId} (stopped: stdout was closed); continue with: verbatim run --session ${sessionId} "..."\n`,
  );
  return STDOUT_CLOSED_EXIT;
}

/** The most recently updated session of `cwd` (not a subagent's). */
async function latestSession(deps: EngineDeps, cwd: string): Promise<string> {
  const [latest] = await deps.store.list({ cwd, limit: 1 });
  if (!latest)
    throw new CliError(
      "session_not_found",
      `there is no session in ${cwd} to continue; start one with: verbatim run "..."`,
      1,
      { cwd },
    );
  return latest.sessionId;
}

const currentValue = (options: SessionConfigOption[], id: string) => {
  const option = options.find((o) => o.id === id);
  return option && "currentValue" in option ? String(option.currentValue) : undefined;
};

/**
 * A continued session takes --model and --mode as config changes, recorded as an editor's
 * `session/set_config_option` records them. Without --model it keeps the model it recorded
 * (VERBATIM_MODEL alone does not switch it); if that model cannot be used here, the run stops
 * before the prompt is recorded and says how to switch.
 */
async function applyChanges(
  agent: ClientContext,
  deps: EngineDeps,
  sessionId: string,
  config: SessionConfigOption[],
  options: RunOptions,
): Promise<void> {
  const sessionCwd = (await deps.store.info(sessionId))?.cwd ?? options.cwd;
  if (options.model && currentValue(config, "model") !== options.model) {
    const ref = parseModelRef(options.model);
    if (ref && !deps.catalogFor(sessionCwd).provider(ref))
      throw modelUnavailable(options.model, sessionCwd, options.trust);
    config = (
      await agent.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "model",
        value: options.model,
      })
    ).configOptions;
  }
  if (options.mode && currentValue(config, "mode") !== options.mode) {
    config = (
      await agent.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "mode",
        value: options.mode,
      })
    ).configOptions;
  }
  const model = currentValue(config, "model");
  const ref = model ? parseModelRef(model) : undefined;
  if (ref && !deps.catalogFor(sessionCwd).provider(ref)) {
    throw new CliError(
      "model_unavailable",
      `session ${sessionId} uses the model ${model}, which is not configured here. ` +
        `Continue it with another model: verbatim run --session ${sessionId} --model <provider>/<model> "..." (\`verbatim models\` lists them), ` +
        "or configure that model's provider.",
      1,
      { model },
    );
  }
}

/** Why --model cannot be used: what its provider lacks, or that there is no such provider. */
function modelUnavailable(model: string, cwd: string, trust: boolean): CliError {
  const status = providerStatus({ ...process.env, VERBATIM_MODEL: model }, cwd, { trust });
  const row = status.models.find((m) => m.model === model);
  const why = status.configError ?? row?.reason ?? `no provider is named "${model.split("/")[0]}"`;
  return new CliError(
    "model_unavailable",
    `--model ${model} cannot be used here: ${why} (\`verbatim models\` lists the models you can use)`,
    1,
    { model },
  );
}
