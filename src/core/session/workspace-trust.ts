/**
 * Trust asked in the editor. A project's settings that allow anything (allow rules, directories,
 * a mode that runs calls unasked) and its hooks act only in a trusted workspace, and `verbatim
 * trust` at a terminal is out of reach of an editor's user. So the first time a session in an
 * untrusted workspace would use them, the editor is asked, on a card of its own naming each
 * thing the workspace wants: "Trust this folder" or "Not now". The answer is the user's: kept in
 * the user config as `verbatim trust` keeps it, and recorded (the question, the answer, and
 * `workspace_trust_answered`). Asked once a session; never in a subagent, nor where nobody can be
 * asked, nor under `--trust`. Instruction files are text, read as before.
 */
import { hostname } from "node:os";
import type { PermissionOption } from "@agentclientprotocol/sdk";
import type { Fact, PermissionOutcome } from "../../journal/facts/index.ts";
import { textContent } from "../../journal/facts/display-shapes.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { commandText, loadHookConfig } from "../hooks/config.ts";
import type { HookSettings } from "../hooks/settings.ts";
import { isTrusted, trustFolder } from "../hooks/trust.ts";
import { mintId } from "../ids.ts";
import type { PermissionAsker } from "../permissions/permission-questions.ts";
import { readPermissionSettings } from "../permissions/settings-rules.ts";

type Host = {
  state: SessionStateFold;
  record(fact: Fact): Promise<void>;
  io: { asker?: PermissionAsker };
  deps: { hooks?: HookSettings };
};

const TRUST_OPTIONS: PermissionOption[] = [
  { optionId: "trust", name: "Trust this folder", kind: "allow_always" },
  { optionId: "not_now", name: "Not now", kind: "reject_once" },
];

/** What an untrusted workspace wants to run or allow: one line each, naming its file. */
export function untrustedWants(env: Record<string, string | undefined>, cwd: string): string[] {
  const settings = readPermissionSettings(env, cwd, false, hostname());
  const wants: string[] = [];
  for (const file of settings.files) {
    if (file.scope !== "project" && file.scope !== "local") continue;
    for (const rule of file.allow) wants.push(`allow ${rule} (${file.path})`);
    for (const dir of file.additionalDirectories) wants.push(`let file tools into ${dir} (${file.path})`);
    if (file.defaultMode === "acceptEdits" || file.defaultMode === "bypassPermissions")
      wants.push(`start sessions in ${file.defaultMode} mode (${file.path})`);
  }
  for (const hook of loadHookConfig({ env, cwd, trusted: false }).untrusted)
    wants.push(`run the ${hook.event} hook ${commandText(hook)} (${hook.source.path})`);
  return wants;
}

/** Asks whether to trust the workspace when it is due (see the module's comment); true when it was trusted now. */
export async function askWorkspaceTrust(host: Host, signal: AbortSignal): Promise<boolean> {
  const { state } = host;
  const settings = host.deps.hooks;
  const ask = host.io.asker;
  if (!settings || settings.trustAll || !ask || state.trustAsked || state.parentSessionId !== undefined) return false;
  const folder = state.cwd;
  if (isTrusted(settings.env, folder)) return false;
  const wants = untrustedWants(settings.env, folder);
  if (wants.length === 0) return false;
  const toolCallId = mintId("call");
  await host.record({
    kind: "tool_call_announced",
    toolCallId,
    name: "TrustWorkspace",
    title: `Trust ${folder}?`,
    toolKind: "other",
    rawInput: { folder, wants },
    locations: [{ path: folder }],
    content: [
      textContent(
        `This workspace is not trusted. Its project settings and hooks want to:\n${wants.map((w) => `- ${w}`).join("\n")}\n\nTrusting it lets them (as \`verbatim trust ${folder}\` would); deny and ask rules hold either way.`,
      ),
    ],
  });
  const requestId = mintId("perm");
  await host.record({ kind: "permission_requested", requestId, toolCallId, options: TRUST_OPTIONS });
  const outcome: PermissionOutcome = await ask({ requestId, toolCallId, options: TRUST_OPTIONS }, signal).then(
    (given) => given,
    () => ({ outcome: "cancelled" }),
  );
  const chosen =
    outcome.outcome === "selected" ? TRUST_OPTIONS.find((o) => o.optionId === outcome.optionId) : undefined;
  await host.record({
    kind: "permission_answered",
    requestId,
    toolCallId,
    outcome:
      outcome.outcome === "selected"
        ? { outcome: "selected", optionId: outcome.optionId, ...(chosen ? { kind: chosen.kind } : {}) }
        : { outcome: "cancelled" },
  });
  let error: string | undefined;
  let trusted = false;
  if (chosen?.optionId === "trust" && !signal.aborted) {
    try {
      trustFolder(settings.env, folder);
      trusted = true;
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
  }
  await host.record({ kind: "workspace_trust_answered", toolCallId, folder, trusted, ...(error ? { error } : {}) });
  const said = trusted
    ? `Trusted ${folder}: its project settings and hooks act from now on.`
    : error
      ? `Not trusted: ${error}.`
      : "Not trusted for now: project allow rules and hooks stay off in this session.";
  await host.record({
    kind: "tool_call_finished",
    toolCallId,
    status: trusted ? "completed" : "failed",
    content: [textContent(said)],
    result: { text: said, isError: !trusted },
  });
  return trusted;
}
