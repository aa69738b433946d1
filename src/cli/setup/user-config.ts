/**
 * Saving what the setup chose into the user config file, keeping everything else the file
 * already says (hooks, trusted folders, other providers). The file may hold a key, so it is
 * written private (0600, its folder 0700), whole, through a temporary file and a rename: an
 * interrupted setup leaves the old file, never half a new one.
 */
import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ProviderSettings, Settings } from "../../core/config/settings-schema.ts";
import { readUserSettingsFile } from "../../core/config/settings.ts";

export type SetupChoice = { model: string; provider?: { id: string; settings: ProviderSettings } };

/**
 * The file's settings with `choice` applied: `model` set, the provider's entry replaced.
 * Fails with the file's own problem when it exists but is not a valid config file.
 */
export function withChoice(
  path: string,
  choice: SetupChoice,
): { ok: true; settings: Settings } | { ok: false; error: string } {
  const current = readUserSettingsFile(path);
  if (!current.ok) return current;
  const settings: Settings = { ...(current.settings ?? {}), model: choice.model };
  if (choice.provider)
    settings.providers = { ...(settings.providers ?? {}), [choice.provider.id]: choice.provider.settings };
  return { ok: true, settings };
}

export function writeUserConfig(path: string, settings: Settings): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
