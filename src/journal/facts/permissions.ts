import { z } from "zod";
import { permissionOption } from "./display-shapes.ts";

/** A permission question sent to the client for one tool call. */
export const permissionRequested = z.object({
  kind: z.literal("permission_requested"),
  requestId: z.string(),
  toolCallId: z.string(),
  options: z.array(permissionOption),
});

export const permissionOutcome = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("selected"),
    optionId: z.string(),
    kind: permissionOption.shape.kind.optional(),
  }),
  z.object({ outcome: z.literal("cancelled") }),
]);
export type PermissionOutcome = z.infer<typeof permissionOutcome>;

/**
 * Who answered a question from another client than the writer's: its process (machine, pid and
 * the process's start time, process-identity.ts) and its client's name.
 */
export const answeredBy = z.object({
  pid: z.number().int(),
  host: z.string().optional(),
  startTime: z.string().optional(),
  client: z.string().optional(),
});
export type AnsweredBy = z.infer<typeof answeredBy>;

/**
 * The answer exactly as given (an option id that was not offered is kept as given). `answeredBy`
 * names the client that gave it when that was not the writer's own (a controller attached from
 * another process: journal/answer-claims.ts). `failure`: the client gave no answer, its request
 * failed (an error response, a dropped connection) with this message; nothing was chosen, so the
 * outcome is `cancelled`. Absent in records written before it was kept.
 */
export const permissionAnswered = z.object({
  kind: z.literal("permission_answered"),
  requestId: z.string(),
  toolCallId: z.string(),
  outcome: permissionOutcome,
  answeredBy: answeredBy.optional(),
  failure: z.string().optional(),
});

/**
 * An "always" answer, kept as a rule for the rest of the session (and after reload): calls of
 * `toolName` whose rule scope equals `scope` (every call of the tool when `scope` is absent) are
 * allowed or refused without asking. The scope was computed when the question was asked.
 */
export const permissionRuleAdded = z.object({
  kind: z.literal("permission_rule_added"),
  requestId: z.string(),
  toolCallId: z.string(),
  toolName: z.string(),
  scope: z.string().optional(),
  decision: z.enum(["allow", "deny"]),
});
export type PermissionRule = Omit<z.infer<typeof permissionRuleAdded>, "kind">;

/**
 * The user allowed file tools into a directory outside the session's directories for the rest
 * of the session (an "always" answer to an outside-access question).
 */
export const accessGranted = z.object({
  kind: z.literal("access_granted"),
  requestId: z.string(),
  toolCallId: z.string(),
  directory: z.string(),
});

export const permissionFacts = [permissionRequested, permissionAnswered, permissionRuleAdded, accessGranted] as const;
