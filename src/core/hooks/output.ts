/**
 * A handler's JSON output (Claude Code's fields), validated with zod. Unknown keys are ignored
 * (hooks written for newer agents keep working); a known field with the wrong type is dropped
 * and reported, so one typo does not throw away the rest of the answer. Output that looks like
 * JSON but is not (including two JSON documents) is an error, never a crash.
 */
import { z } from "zod";

const permissionRequestDecision = z.object({
  behavior: z.enum(["allow", "deny"]),
  message: z.string().optional(),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  updatedPermissions: z.array(z.unknown()).optional(),
  interrupt: z.boolean().optional(),
});

const hookSpecificOutput = z.object({
  hookEventName: z.string().optional(),
  permissionDecision: z.enum(["allow", "deny", "ask", "defer"]).optional(),
  permissionDecisionReason: z.string().optional(),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  additionalContext: z.string().optional(),
  /** PermissionRequest's decision. */
  decision: permissionRequestDecision.optional(),
});

const hookOutputSchema = z.object({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  /** `block` on UserPromptSubmit, PostToolUse, Stop; legacy `approve`/`block` on PreToolUse. */
  decision: z.enum(["approve", "block"]).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: hookSpecificOutput.optional(),
});
export type HookOutput = z.infer<typeof hookOutputSchema>;

export type ParsedOutput =
  | { ok: true; output: HookOutput; dropped: string[]; unapplied: string[] }
  | { ok: false; error: string };

/**
 * Fields Claude Code applies that verbatim does not: a hook that sets one (e.g. to redact a tool's
 * output before the model sees it) must hear that it had no effect rather than be ignored.
 */
const UNAPPLIED = {
  top: ["sessionTitle", "suppressOriginalPrompt"],
  specific: [
    "updatedToolOutput",
    "updatedMCPToolOutput",
    "sessionTitle",
    "suppressOriginalPrompt",
    "initialUserMessage",
    "watchPaths",
    "reloadSkills",
    "classifierContext",
  ],
} as const;

function unappliedFields(value: Record<string, unknown>): string[] {
  const found: string[] = UNAPPLIED.top.filter((key) => value[key] !== undefined);
  const specific = value.hookSpecificOutput;
  if (isObject(specific)) {
    for (const key of UNAPPLIED.specific) if (specific[key] !== undefined) found.push(`hookSpecificOutput.${key}`);
  }
  return found;
}

/** Parses stdout that starts with `{`. */
export function parseHookOutput(stdout: string): ParsedOutput {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch (error) {
    return {
      ok: false,
      error: `its output looks like JSON but is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: "its output is JSON but not an object" };
  }
  const candidate: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const unapplied = unappliedFields(candidate);
  const dropped: string[] = [];
  // Each pass drops the fields zod rejected; a field is dropped at most once, so this ends.
  for (;;) {
    const parsed = hookOutputSchema.safeParse(candidate);
    if (parsed.success) return { ok: true, output: parsed.data, dropped, unapplied };
    let removed = false;
    for (const issue of parsed.error.issues) {
      const [top, inner] = issue.path;
      if (typeof top !== "string") continue;
      const nested = candidate[top];
      if (top === "hookSpecificOutput" && typeof inner === "string" && isObject(nested) && inner in nested) {
        const { [inner]: _gone, ...rest } = nested;
        candidate[top] = rest;
        dropped.push(`hookSpecificOutput.${inner}: ${issue.message}`);
        removed = true;
      } else if (top in candidate) {
        delete candidate[top];
        dropped.push(`${top}: ${issue.message}`);
        removed = true;
      }
    }
    if (!removed)
      return {
        ok: false,
        error: `its output does not match the hook output schema (${parsed.error.issues.map((i) => i.message).join("; ")})`,
      };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
