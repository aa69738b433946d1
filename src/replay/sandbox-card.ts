/**
 * The OS sandbox's verdicts on a command's card: the policy it ran under (`_meta.verbatim.sandbox`)
 * and a visible line for each refusal. Pure: recorded facts in.
 */
import { textContent } from "../journal/facts/display-shapes.ts";
import type { FactOf, SandboxViolation } from "../journal/facts/index.ts";
import type { Card } from "./card.ts";

type SandboxMeta = {
  policy?: FactOf<"command_sandboxed">["policy"];
  violations?: SandboxViolation[];
  dropped?: number;
};

export function commandSandboxed(card: Card, fact: FactOf<"command_sandboxed">): void {
  card.meta = { ...card.meta, sandbox: { ...(card.meta.sandbox as SandboxMeta | undefined), policy: fact.policy } };
}

export function sandboxViolations(card: Card, fact: FactOf<"sandbox_violations">): void {
  const before = card.meta.sandbox as SandboxMeta | undefined;
  const violations = [...(before?.violations ?? []), ...fact.violations];
  const dropped = (before?.dropped ?? 0) + (fact.dropped ?? 0);
  card.meta = { ...card.meta, sandbox: { ...before, violations, ...(dropped ? { dropped } : {}) } };
  card.notes = [...card.notes, textContent(violationsLine(fact.violations, fact.dropped ?? 0))];
}

/** The card's line for what the sandbox refused (the model is told the same in the call's result). */
export function violationsLine(violations: readonly SandboxViolation[], dropped: number): string {
  const more = dropped ? `; and ${dropped} more` : "";
  return `Sandbox refused: ${violations.map(violationWords).join("; ")}${more}.`;
}

export function violationWords(v: SandboxViolation): string {
  switch (v.type) {
    case "write":
      return `writing ${v.path}`;
    case "network":
      return `connecting to ${v.host}${v.port === undefined ? "" : `:${v.port}`}`;
    case "other":
      return v.line;
  }
}
