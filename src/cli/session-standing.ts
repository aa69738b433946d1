/** A session's standing permissions, read from its folded facts (what `show` lists and `import` drops). */
import type { SessionStateFold } from "../replay/state.ts";
import type { StandingPermissions } from "../view/standing-permissions.ts";
import { defined } from "../shared/defined.ts";

/** Modes in which calls run without asking (see core/permissions/decide.ts). */
export const UNASKED_MODES: ReadonlySet<string> = new Set(["acceptEdits", "bypassPermissions"]);

/** The standing permissions `state` holds, as the view names them. */
export function standingOf(state: SessionStateFold): StandingPermissions {
  const mode = UNASKED_MODES.has(state.modeId)
    ? { id: state.modeId, name: state.availableModes.find((m) => m.id === state.modeId)?.name ?? state.modeId }
    : undefined;
  const settings = state.permissionSettings?.fact;
  const settingsRules = (settings?.files ?? []).flatMap((file) =>
    (["deny", "ask", "allow"] as const).flatMap((decision) =>
      file[decision].map((text) => ({
        decision,
        text,
        path: file.path,
        ...(decision === "allow" && !settings?.trusted && (file.scope === "project" || file.scope === "local")
          ? { held: true }
          : {}),
      })),
    ),
  );
  return {
    rules: state.rules,
    ...(settingsRules.length ? { settingsRules } : {}),
    grantedDirectories: state.grantedDirectories,
    additionalDirectories: state.additionalDirectories,
    ...defined({ mode }),
  };
}
