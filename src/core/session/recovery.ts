/** What the model is told when a session continues after its process died mid-turn, and what the user is shown when the journal is lost. */
import type { FactOf } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { mintId } from "../ids.ts";

export function recoveryFact(state: SessionStateFold): FactOf<"session_recovered"> {
  const interrupted = state.lastTurn && !state.lastTurn.ended ? state.lastTurn.turnId : undefined;
  return {
    kind: "session_recovered",
    ...(interrupted ? { interruptedTurnId: interrupted } : {}),
    calls: [...state.openCalls.values()].map((call) => ({
      toolCallId: call.toolCallId,
      mayHaveRun: call.started,
      modelText: call.started
        ? "verbatim stopped while this call was running, so its outcome is unknown. Check its effects before relying on them."
        : call.awaitingPermission
          ? "This call never ran: verbatim stopped while it was waiting for the user's permission."
          : "This call never ran: verbatim stopped before running it.",
    })),
  };
}

/**
 * The notice a turn stopped by an unreachable journal shows (SessionRuntime): the one thing shown
 * before it is recorded, recorded first when the journal is back.
 */
export function journalLostNotice(error: unknown): FactOf<"notice_shown"> {
  return {
    kind: "notice_shown",
    messageId: mintId("msg"),
    severity: "error",
    title: "The journal cannot be reached: the turn stopped",
    description: `${error instanceof Error ? error.message : String(error)}. Everything shown before this notice is recorded; the next prompt reconnects.`,
  };
}
