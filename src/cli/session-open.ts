/**
 * Which session `run` and `chat` talk to: a new one in `cwd`, one given by id, or the latest one
 * of `cwd`; a continued session takes `--model` and `--mode` as recorded config changes, and one
 * whose model cannot be used here is refused before anything is recorded.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { ClientContext, SessionConfigOption } from "@agentclientprotocol/sdk";
import { parseModelRef } from "../core/config/model-ref.ts";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { CliError } from "./cli-error.ts";
import { providerStatus } from "./provider-status.ts";

export type SessionChoice = {
  /** The session's working directory: absolute, an existing folder. */
  cwd: string;
  model?: string;
  mode?: string;
  /** The session to continue, by id. */
  session?: string;
  /** Continue the most recent session of `cwd`. */
  continueLatest: boolean;
  /** Run project hooks in the workspace even if it is not in the trusted folders. */
  trust: boolean;
};

/**
 * Opens the chosen session and returns its id. A continued session is resumed (nothing replayed)
 * or, with `replay`, loaded: its whole transcript is sent first, as an editor reopening it is.
 */
export async function openSession(
  agent: ClientContext,
  deps: EngineDeps,
  choice: SessionChoice,
  options: { replay: boolean } = { replay: false },
): Promise<string> {
  const cwd = choice.cwd;
  const existing = choice.session ?? (choice.continueLatest ? await latestSession(deps, cwd) : undefined);
  if (existing) {
    const sessionCwd = (await deps.store.info(existing))?.cwd ?? cwd;
    const method = options.replay ? acp.methods.agent.session.load : acp.methods.agent.session.resume;
    const { configOptions } = await agent.request(method, { sessionId: existing, cwd, mcpServers: [] });
    await applyChanges(agent, deps, existing, sessionCwd, configOptions ?? [], choice);
    return existing;
  }
  const ref = choice.model ? parseModelRef(choice.model) : undefined;
  if (choice.model && ref && !deps.catalogFor(cwd).provider(ref))
    throw modelUnavailable(choice.model, cwd, choice.trust);
  const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  if (choice.mode)
    await agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: choice.mode });
  return sessionId;
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
 * (VERBATIM_MODEL alone does not switch it); if that model cannot be used here, the session stops
 * before a prompt is recorded and says how to switch.
 */
async function applyChanges(
  agent: ClientContext,
  deps: EngineDeps,
  sessionId: string,
  sessionCwd: string,
  config: SessionConfigOption[],
  choice: SessionChoice,
): Promise<void> {
  if (choice.model && currentValue(config, "model") !== choice.model) {
    const ref = parseModelRef(choice.model);
    if (ref && !deps.catalogFor(sessionCwd).provider(ref))
      throw modelUnavailable(choice.model, sessionCwd, choice.trust);
    config = (
      await agent.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "model",
        value: choice.model,
      })
    ).configOptions;
  }
  if (choice.mode && currentValue(config, "mode") !== choice.mode) {
    config = (
      await agent.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "mode",
        value: choice.mode,
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
