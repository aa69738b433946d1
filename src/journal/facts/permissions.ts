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

/** The answer exactly as given (an option id that was not offered is kept as given). */
export const permissionAnswered = z.object({
  kind: z.literal("permission_answered"),
  requestId: z.string(),
  toolCallId: z.string(),
  outcome: permissionOutcome,
});

export const permissionFacts = [permissionRequested, permissionAnswered] as const;
