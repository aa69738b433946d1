import { z } from "zod";
import { textContent, type Tool } from "./tool.ts";

const input = z.lazy(() =>
  z
    .object({ plan: z.string().min(1).describe("The plan, in Markdown: what will change, and in which order") })
    // Claude Code's tool takes other keys too (`allowedPrompts`, deprecated): they are accepted and ignored.
    .passthrough(),
);
type Input = z.infer<typeof input>;

/**
 * Claude Code's ExitPlanMode: in plan mode, the model presents its plan and asks to start. The
 * card (kind `switch_mode`) shows the plan; the user answers a question whose options are the
 * modes to continue in (permissions/plan-approval.ts): approving switches the mode, then this
 * runs and tells the model to go ahead; refusing keeps the session planning.
 */
export const exitPlanModeTool: Tool<Input> = {
  name: "ExitPlanMode",
  description:
    "Use this in plan mode once your plan is ready: it presents the plan to the user and asks to leave plan mode " +
    "and start making changes. Put the whole plan in `plan` (Markdown). If the user approves, go ahead with it; " +
    "if not, keep planning and ask what should change. Do not use it outside plan mode, nor to ask questions.",
  input,
  kind: "switch_mode",
  access: "read",
  title: () => "Ready to code?",
  locations: () => [],
  preview: async (i) => [textContent(i.plan)],
  async run(i) {
    return {
      status: "completed",
      // The card keeps showing the plan (a finished call's content replaces the card's).
      content: [textContent(i.plan)],
      result: {
        text: "The user approved your plan and the session has left plan mode. Go ahead with the plan now.",
        isError: false,
      },
    };
  },
};
