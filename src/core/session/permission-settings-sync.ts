/**
 * Keeps a session's recorded permission settings in step with this host's files: read when the
 * session starts and before each turn, recorded (with notices for what is wrong in them) when
 * they differ from what this host last recorded for the session since its last import. The gate
 * decides only from what is recorded (permissions/settings-rules.ts).
 */
import { hostname } from "node:os";
import type { Fact, FactOf } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { isTrusted } from "../hooks/trust.ts";
import type { HookSettings } from "../hooks/settings.ts";
import { mintId } from "../ids.ts";
import { settingsNotices } from "../permissions/settings-notices.ts";
import { readPermissionSettings, sameSettings, settingsInForce } from "../permissions/settings-rules.ts";

type Host = { state: SessionStateFold; record(fact: Fact): Promise<void> };

/** The settings as this host's files say now, for a session in `cwd`. */
export function currentSettings(settings: Pick<HookSettings, "env" | "trustAll">, cwd: string) {
  const trusted = settings.trustAll || isTrusted(settings.env, cwd);
  return readPermissionSettings(settings.env, cwd, trusted, hostname());
}

/**
 * Records `read` (the files as they are now) unless the session's settings in force say the same;
 * nothing when there are no settings files and none were in force. Its notices follow it, those
 * already shown for the settings it replaces left out.
 */
export async function recordSettings(host: Host, read: FactOf<"permission_settings_read">): Promise<void> {
  const before = settingsInForce(host.state, read.host);
  if (before ? sameSettings(before, read) : read.files.length === 0 && read.unread.length === 0) return;
  await host.record(read);
  const shown = new Set((before ? settingsNotices(before) : []).map((n) => JSON.stringify(n)));
  for (const notice of settingsNotices(read)) {
    if (shown.has(JSON.stringify(notice))) continue;
    await host.record({ kind: "notice_shown", messageId: mintId("msg"), ...notice });
  }
}

/** Before a turn: the files read again, and recorded if they changed. */
export async function syncSettings(
  host: Host,
  settings: Pick<HookSettings, "env" | "trustAll"> | undefined,
): Promise<void> {
  if (!settings) return;
  await recordSettings(host, currentSettings(settings, host.state.cwd));
}
