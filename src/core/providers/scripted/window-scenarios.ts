/**
 * Scripted scenarios for turns that outgrow the context window: one long turn reading a large
 * file again and again, in a small window, so the requests of one turn are pruned and compacted
 * before they pass the threshold.
 */
import { join } from "node:path";
import { call, done, say, type Scenario } from "./script.ts";

/** How many times the long turn reads the log before it ends. */
export const LONG_TURN_READS = 40;

/** The file the long turn reads (the test or the user puts it in the working directory). */
export const LONG_TURN_FILE = "build.log";

export const windowScenarios: Record<string, Scenario> = {
  "long-turn": {
    description: `Reads ${LONG_TURN_FILE} ${LONG_TURN_READS} times in one turn, in a 4,100-token window: its requests are pruned, then compacted, mid-turn.`,
    contextWindow: 4100,
    loops: true,
    prompts: [
      [
        (ctx) =>
          ctx.callsSoFar < LONG_TURN_READS
            ? [
                ...say(`Reading it again (${ctx.callsSoFar + 1} of ${LONG_TURN_READS}). `),
                ...call(0, `call_read_${ctx.callsSoFar + 1}`, "Read", { file_path: join(ctx.cwd, LONG_TURN_FILE) }),
                ...done("tool_use"),
              ]
            : [
                ...say(
                  `Done: I read ${LONG_TURN_FILE} ${ctx.callsSoFar} times${ctx.summarised ? ", working from a summary of the earlier reads" : ""}.`,
                ),
                ...done(),
              ],
      ],
    ],
  },
};
