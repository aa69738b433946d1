/**
 * `verbatim setup`: the interactive setup a client runs in a terminal (ACP terminal
 * authentication) or a user runs by hand. It asks for a provider, its key (typed, kept in the
 * user config file, or named by an environment variable), checks it with a models request, and
 * saves the choice in the user config file, so the agent then starts with a model and no
 * variables from the editor. Exit code: 0 saved, 1 nothing saved, 130 interrupted.
 */
import type { ProviderKind, ProviderSettings } from "../core/config/settings-schema.ts";
import { mergedSettingsSchema } from "../core/config/settings-schema.ts";
import { statSync } from "node:fs";
import { dirname } from "node:path";
import { folderProblem, PrivateWriteError } from "../core/confinement/private-write.ts";
import { describeIssues, readUserSettingsFile, settingsFiles } from "../core/config/settings.ts";
import { WIRES } from "../core/providers/wire-table.ts";
import { checkProvider, type CheckResult } from "./setup/check.ts";
import { SetupCancelled, terminalPrompter, type Prompter } from "./setup/prompt.ts";
import { withChoice, writeUserConfig, type SetupChoice } from "./setup/user-config.ts";
import { defined } from "../shared/defined.ts";
import { visible } from "../view/visible-text.ts";

type Env = Record<string, string | undefined>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COMPATIBLE_ID = "openai-compatible";

/** The hosted providers offered first, each with the model suggested for it (their wires in WIRES). */
type Hosted = { kind: "anthropic" | "openai"; model: string };
const HOSTED: Hosted[] = [
  { kind: "anthropic", model: "claude-sonnet-4-6" },
  { kind: "openai", model: "gpt-5.4" },
];

/** How the provider gets its key: none, the key itself (saved in the file), or a variable's name. */
type KeyChoice = { settings: Pick<ProviderSettings, "apiKey" | "apiKeyEnv">; value?: string; unset?: string };

export async function runSetup(env: Env = process.env): Promise<number> {
  const file = settingsFiles(env, process.cwd()).user;
  const existing = readUserSettingsFile(file);
  if (!existing.ok) {
    process.stderr.write(
      `verbatim setup: ${visible(existing.error)}\nFix or remove that file, then run the setup again.\n`,
    );
    return 1;
  }
  // Said before a key is typed; checked again when the file is written.
  const unsafe = statSync(dirname(file), { throwIfNoEntry: false }) ? folderProblem(dirname(file)) : undefined;
  if (unsafe) {
    process.stderr.write(
      `verbatim setup: the config file would hold your key, and ${visible(unsafe)}. Nothing was saved.\n`,
    );
    return 1;
  }
  const prompt = terminalPrompter();
  try {
    prompt.say(`verbatim setup: choose the model provider verbatim uses. Your answers are saved in ${file}.\n`);
    const choice = await chooseProvider(prompt, env);
    if (!choice) return 1;
    return save(prompt, file, choice);
  } catch (error) {
    if (error instanceof SetupCancelled) {
      process.stderr.write("\nverbatim setup: cancelled; nothing was saved.\n");
      return error.code;
    }
    throw error;
  } finally {
    prompt.close();
  }
}

async function chooseProvider(prompt: Prompter, env: Env): Promise<SetupChoice | undefined> {
  const which = await prompt.choose("Which model provider?", [
    `${WIRES.anthropic.name} (Claude models)`,
    WIRES.openai.name,
    "An OpenAI-compatible server (Ollama, vLLM, LM Studio, OpenRouter...)",
    "The offline scripted model (no key, no network: for trying verbatim out)",
  ]);
  if (which === 3) return { model: "scripted/demo" };
  if (which === 2) return compatibleServer(prompt, env);
  const hosted = HOSTED[which];
  return hosted ? hostedProvider(prompt, env, hosted) : undefined;
}

async function hostedProvider(prompt: Prompter, env: Env, hosted: Hosted): Promise<SetupChoice | undefined> {
  const wire = WIRES[hosted.kind];
  const fromEnv = env[wire.urlVar]?.trim() || undefined;
  if (fromEnv) prompt.say(`Using the server in ${wire.urlVar}: ${fromEnv}`);
  const key = await chooseKey(prompt, env, wire.keyVar, false);
  const checked = await check(prompt, hosted.kind, fromEnv ?? wire.defaultUrl, key);
  if (!checked) return undefined;
  const model = await chooseModel(prompt, hosted.model, checked);
  const settings: ProviderSettings = { ...defined({ baseUrl: fromEnv }), ...key.settings };
  return { model: `${hosted.kind}/${model}`, provider: { id: hosted.kind, settings } };
}

async function compatibleServer(prompt: Prompter, env: Env): Promise<SetupChoice | undefined> {
  let baseUrl = "";
  for (;;) {
    baseUrl = await prompt.ask("The server's OpenAI-compatible URL", "http://127.0.0.1:11434/v1");
    if (/^https?:\/\/[^\s/]+/.test(baseUrl) && URL.canParse(baseUrl)) break;
    prompt.say(`"${baseUrl}" is not an http(s) URL such as http://127.0.0.1:11434/v1.`);
  }
  const key = await chooseKey(prompt, env, undefined, true);
  const checked = await check(prompt, "openai-chat", baseUrl, key);
  if (!checked) return undefined;
  const first = checked.ok ? checked.models[0] : undefined;
  const model = await chooseModel(prompt, first, checked);
  const settings: ProviderSettings = { type: "openai-chat", baseUrl, ...key.settings };
  return { model: `${COMPATIBLE_ID}/${model}`, provider: { id: COMPATIBLE_ID, settings } };
}

async function chooseKey(
  prompt: Prompter,
  env: Env,
  keyVar: string | undefined,
  optional: boolean,
): Promise<KeyChoice> {
  const ways = [
    "Type the key now (saved in the config file, readable only by you)",
    "Name the environment variable that holds it",
  ];
  const way = await prompt.choose(
    "How does verbatim get the API key?",
    optional ? ["The server needs no key", ...ways] : ways,
  );
  const typed = optional ? way === 1 : way === 0;
  if (optional && way === 0) return { settings: {} };
  if (typed) {
    for (;;) {
      const value = await prompt.secret("API key (not shown as you type)");
      if (value !== "") return { settings: { apiKey: value }, value };
      prompt.say("The key is empty.");
    }
  }
  for (;;) {
    const name = await prompt.ask("Environment variable", keyVar);
    if (!ENV_NAME.test(name)) {
      prompt.say(`"${name}" is not an environment variable name.`);
      continue;
    }
    const value = env[name]?.trim() || undefined;
    return { settings: { apiKeyEnv: name }, ...(value ? { value } : { unset: name }) };
  }
}

/**
 * Checks the server with the key; on a failure asks whether to save anyway. Undefined when the
 * user chose not to save.
 */
async function check(
  prompt: Prompter,
  kind: ProviderKind,
  baseUrl: string,
  key: KeyChoice,
): Promise<CheckResult | undefined> {
  if (key.unset) {
    prompt.say(
      `${key.unset} is not set in this terminal, so the key cannot be checked now. The editor must start verbatim with ${key.unset} set.`,
    );
    return { ok: false, message: "not checked" };
  }
  prompt.say(`Checking ${baseUrl}...`);
  const result = await checkProvider(kind, baseUrl, key.value);
  if (result.ok) {
    prompt.say(`OK: the server answered with ${result.models.length} model${result.models.length === 1 ? "" : "s"}.`);
    return result;
  }
  prompt.say(`Problem: ${result.message}`);
  const answer = await prompt.ask("Save these settings anyway? (y/n)", "n");
  if (/^y(es)?$/i.test(answer)) return result;
  prompt.say("Nothing was saved.");
  return undefined;
}

async function chooseModel(prompt: Prompter, fallback: string | undefined, checked: CheckResult): Promise<string> {
  const offered = checked.ok ? checked.models : [];
  if (offered.length > 0) {
    const shown = offered.slice(0, 20);
    prompt.say(
      `The server's models: ${shown.join(", ")}${offered.length > shown.length ? `, and ${offered.length - shown.length} more` : ""}`,
    );
  }
  for (;;) {
    const model = await prompt.ask("Model", fallback);
    if (model === "") {
      prompt.say("Give the model's id, as the server names it.");
      continue;
    }
    if (offered.length > 0 && !offered.includes(model))
      prompt.say(`Note: the server did not list "${model}"; using it anyway.`);
    return model;
  }
}

function save(prompt: Prompter, file: string, choice: SetupChoice): number {
  const next = withChoice(file, choice);
  if (!next.ok) {
    process.stderr.write(`verbatim setup: ${visible(next.error)}\n`);
    return 1;
  }
  const valid = mergedSettingsSchema.safeParse(next.settings);
  if (!valid.success) {
    process.stderr.write(
      `verbatim setup: the settings would not be valid, so nothing was saved:\n${visible(describeIssues(file, valid.error))}\n`,
    );
    return 1;
  }
  try {
    writeUserConfig(file, valid.data);
  } catch (error) {
    if (!(error instanceof PrivateWriteError)) throw error;
    process.stderr.write(`verbatim setup: ${visible(error.message)}\n`);
    return 1;
  }
  prompt.say(`\nSaved ${file} (readable only by you). New sessions use ${choice.model}.`);
  prompt.say('Start a new thread in your editor, or run `verbatim run "..."` here.');
  return 0;
}
