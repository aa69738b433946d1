/**
 * Saving what the setup chose into the user config file, keeping everything else the file
 * already says (hooks, trusted folders, other providers). The file may hold a key, so it is
 * written private, whole, in a folder only the user can write (see `writePrivateFile`): an
 * interrupted setup leaves the old file, never half a new one, and a folder others can write is
 * refused before the key is written anywhere.
 */
import { writePrivateFile } from "../../core/confinement/private-write.ts";
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

/** Throws `PrivateWriteError` (nothing written) when the config folder is not the user's alone. */
export function writeUserConfig(path: string, settings: Settings): void {
  writePrivateFile(path, `${JSON.stringify(settings, null, 2)}\n`);
}
