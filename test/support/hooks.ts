/**
 * Hook configuration in a test sandbox: settings files at Claude Code's and verbatim's places
 * (under the sandbox's HOME, XDG_CONFIG_HOME and workspace, never the real ones), hook scripts,
 * trust, and reading hook outcomes off cards and messages.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ToolCardView, ViewModel } from "../../src/view/view-model.ts";
import type { Sandbox } from "./workspace.ts";

type Handler = { type?: string; command?: string; args?: string[]; timeout?: number; [key: string]: unknown };
export type HooksConfig = Record<string, { matcher?: string; hooks: Handler[] }[]>;

export type SettingsPlace = "claude-user" | "verbatim-user" | "claude-project" | "verbatim-project" | "claude-local";

export function settingsPath(box: Sandbox, place: SettingsPlace): string {
  switch (place) {
    case "claude-user":
      return join(box.userHome, ".claude", "settings.json");
    case "verbatim-user":
      return join(box.configHome, "verbatim", "config.json");
    case "claude-project":
      return join(box.workspace, ".claude", "settings.json");
    case "verbatim-project":
      return join(box.workspace, ".verbatim", "config.json");
    case "claude-local":
      return join(box.workspace, ".claude", "settings.local.json");
  }
}

/** Writes `hooks` into a settings file, keeping the file's other keys. */
export function writeHooks(box: Sandbox, place: SettingsPlace, hooks: HooksConfig): string {
  const path = settingsPath(box, place);
  mkdirSync(dirname(path), { recursive: true });
  const current = existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>) : {};
  writeFileSync(path, JSON.stringify({ ...current, hooks }, null, 2));
  return path;
}

/** Marks the sandbox's workspace trusted in the user config (as `verbatim trust` would). */
export function trustWorkspace(box: Sandbox): void {
  const path = settingsPath(box, "verbatim-user");
  mkdirSync(dirname(path), { recursive: true });
  const current = existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>) : {};
  writeFileSync(path, JSON.stringify({ ...current, trustedFolders: [box.workspace] }, null, 2));
}

/** An executable `/bin/sh` script in the sandbox; returns its path. */
export function script(box: Sandbox, name: string, body: string): string {
  const path = join(box.root, "hooks", name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A command handler running `command` (shell form). */
export const command = (commandLine: string, extra: Partial<Handler> = {}): Handler => ({
  type: "command",
  command: commandLine,
  ...extra,
});

export type OutcomeMeta = {
  outcomeId: string;
  revision: number;
  event: string;
  status: string;
  decision: string;
  reason?: string;
  toolCallId?: string;
  originSessionId: string;
  runs: {
    hookId: string;
    hookRunId: string;
    command: string;
    status: string;
    exitCode?: number;
    entries: { kind: string; text: string }[];
  }[];
  inputRewritten?: { byHookId: string; conflictingHookIds: string[] };
  halted?: { stopReason: string };
  systemMessages: string[];
};

/** The hook outcomes shown on a card (`_meta.verbatim.hooks`). */
export const cardHooks = (card: Pick<ToolCardView, "meta"> | undefined): OutcomeMeta[] =>
  (card?.meta?.verbatim as { hooks?: OutcomeMeta[] } | undefined)?.hooks ?? [];

/** Hook outcomes shown as messages of their own (`_meta.verbatim.hook`), in timeline order. */
export function standaloneHooks(view: ViewModel): { text: string; hook: OutcomeMeta }[] {
  return view.timeline
    .filter((k) => k.startsWith("message:"))
    .map((k) => view.messages[k.slice("message:".length)]!)
    .filter((m) => (m.meta?.verbatim as { hook?: unknown } | undefined)?.hook !== undefined)
    .map((m) => ({
      text: m.content.map((b) => (b.type === "text" ? b.text : "")).join(""),
      hook: (m.meta?.verbatim as { hook: OutcomeMeta }).hook,
    }));
}

/** Notices shown as messages (`_meta.verbatim.notice`), in timeline order. */
export function noticeMessages(view: ViewModel): { title: string; description?: string; severity: string }[] {
  return view.timeline
    .filter((k) => k.startsWith("message:"))
    .map((k) => view.messages[k.slice("message:".length)]!)
    .flatMap((m) => {
      const notice = (
        m.meta?.verbatim as { notice?: { title: string; description?: string; severity: string } } | undefined
      )?.notice;
      return notice ? [notice] : [];
    });
}
