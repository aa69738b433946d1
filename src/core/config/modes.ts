import type { SessionMode } from "@agentclientprotocol/sdk";

/** The session modes: how much the agent may do without asking. */
export const modes: SessionMode[] = [
  { id: "default", name: "Default", description: "Ask before editing files or running commands" },
  { id: "acceptEdits", name: "Accept edits", description: "Edit files without asking; ask before running commands" },
  { id: "plan", name: "Plan", description: "Read-only: look around and plan, change nothing" },
  { id: "bypassPermissions", name: "Bypass permissions", description: "Do everything without asking" },
];

export type ModeId = "default" | "acceptEdits" | "plan" | "bypassPermissions";

export const isModeId = (id: string): id is ModeId => modes.some((m) => m.id === id);
