/** A session's close, step by step: each step runs even when an earlier one failed. */
import { log } from "../../shared/log.ts";

/**
 * Runs each step in order, `what` naming it; a step that fails (a full disk fails every write) is
 * logged and the next runs. Never throws.
 */
export async function closeInSteps(sessionId: string, steps: [what: string, run: () => unknown][]): Promise<void> {
  for (const [what, run] of steps) {
    try {
      await run();
    } catch (error) {
      log.warn(
        `session ${sessionId}: ${what} failed at close: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
