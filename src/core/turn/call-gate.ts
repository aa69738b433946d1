/**
 * Whether an announced call may run. The gate is where the mode, saved permission rules,
 * permission questions and PreToolUse hooks decide; the turn only acts on the decision. A gate
 * journals what it asks and what it was answered through `session.record` before acting.
 */
import type { Fact, StoredFact } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import type { Tool } from "../tools/tool.ts";
import type { TurnHooks } from "./turn-hooks.ts";

export type RefusedBy = "user" | "hook" | "mode" | "cancel" | "rule";

export type GateDecision =
  /** `roots`: directories outside the session's own that this call may use (the user allowed it). */
  | { run: true; input: unknown; roots?: string[] }
  | { run: false; by: RefusedBy; reason: string; modelText: string };

/** `roots`: the directories file tools may use without asking (the session's, plus any granted). */
export type GateRequest = { toolCallId: string; tool: Tool; input: unknown; signal: AbortSignal; roots: string[] };

/** What a gate may use of the session: its state (mode, rules), the journal, and its hooks. */
export type GateSession = { state: SessionStateFold; record(fact: Fact): Promise<void>; hooks?: TurnHooks };

export type CallGate = (request: GateRequest, session: GateSession) => Promise<GateDecision>;

/** Read-only tools run; nothing else does. For sessions with no way to ask anyone. */
export const readOnlyGate: CallGate = async ({ tool, input }) =>
  tool.access === "read"
    ? { run: true, input }
    : { run: false, by: "mode", reason: `${tool.name} needs permission and no one can be asked`, modelText: `${tool.name} is not available in this session.` };
