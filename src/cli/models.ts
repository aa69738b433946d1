/**
 * `verbatim models`: the models the configured providers offer, which one new sessions use, and
 * for each provider that cannot be used, why (what to set). Exits 1 when no model can be used.
 */
import { isAbsolute, resolve } from "node:path";
import { providerStatus } from "./provider-status.ts";

const out = (line = "") => process.stdout.write(`${line}\n`);

export function listModels(args: { cwd?: string; json: boolean }): number {
  const cwd = args.cwd ? (isAbsolute(args.cwd) ? args.cwd : resolve(args.cwd)) : process.cwd();
  const status = providerStatus(process.env, cwd);
  const usable = status.models.some((m) => m.available);
  const problem = status.configError ?? (status.setup.defaultModel ? undefined : status.setup.problem);
  if (args.json) {
    for (const model of status.models) out(JSON.stringify(model));
    if (problem)
      out(
        JSON.stringify({
          error: { code: status.configError ? "invalid_config_file" : "no_provider", message: problem },
        }),
      );
    return usable && !status.configError ? 0 : 1;
  }
  for (const model of status.models) {
    const mark = model.default ? "*" : model.available ? " " : "-";
    out(`${mark} ${model.model}  ${model.name}${model.reason ? `  (unavailable: ${model.reason})` : ""}`);
  }
  if (status.models.length > 0) out("\n* new sessions use this model; - cannot be used until its provider is set up");
  if (problem) process.stderr.write(`verbatim: ${problem}\n`);
  return usable && !status.configError ? 0 : 1;
}
