/**
 * What a command or skill does to the rest of its turn, from its front matter (agent-conventions
 * §4.3-4.4), decided once when it begins to act and recorded (`command_activated`): its
 * `allowed-tools` become allow rules (a project command's only in a trusted workspace, as its
 * `` !`cmd` `` inlines), its `disallowed-tools` deny rules (in any workspace: they only take
 * away), its `model` and `effort` what the turn's next model requests use; a skill's `hooks` are
 * registered for the rest of the session, as Claude Code registers them (a project skill's only in
 * a trusted workspace, as the hooks contract says of every project hook). Nothing is recorded for a command that changes none of these.
 */
import type { FactOf, ModelRef } from "../../journal/facts/index.ts";
import type { ModelChoice } from "../config/config-options.ts";
import { formatModelRef } from "../config/model-ref.ts";
import { namedModel } from "../config/model-alias.ts";
import type { ThoughtLevel } from "../config/thought-levels.ts";
import { mintId } from "../ids.ts";
import type { UserCommand } from "./command-files.ts";

/** Claude Code's effort levels as verbatim's thought levels (`max` and `xhigh` think as hard as verbatim does: `high`). */
const EFFORTS: Record<string, ThoughtLevel> = {
  off: "off",
  low: "low",
  medium: "medium",
  high: "high",
  xhigh: "high",
  max: "high",
};

export type ActivationPlace = {
  turnId: string;
  /** The `Skill` call that loaded it, when the model did. */
  toolCallId?: string;
  trusted: boolean;
  /** The session's model now, and the models this process lists. */
  model: ModelRef;
  models: readonly ModelChoice[];
};

/** The fact for `command` beginning to act, or undefined when it changes nothing in its turn. */
export function activationOf(command: UserCommand, place: ActivationPlace): FactOf<"command_activated"> | undefined {
  const withheld: string[] = [];
  const mayGrant = command.scope === "user" || place.trusted;
  const allow = command.allowedTools ?? [];
  if (allow.length && !mayGrant)
    withheld.push(`its allowed-tools (${allow.join(", ")}) act only in a trusted workspace (verbatim trust)`);
  const hooks = command.kind === "skill" ? command.hooks : undefined;
  if (hooks && !mayGrant) withheld.push("its hooks run only in a trusted workspace (verbatim trust)");
  const named = namedModel(command.model, place.model, place.models);
  if (named.state === "unknown")
    withheld.push(`its model "${named.name}" is not one this verbatim lists; ${formatModelRef(place.model)} is used`);
  const effort = command.effort === undefined ? undefined : EFFORTS[command.effort.toLowerCase()];
  if (command.effort !== undefined && effort === undefined)
    withheld.push(`its effort "${command.effort}" is not low, medium, high or max; the session's is used`);
  if (command.shell !== undefined && command.shell !== "bash" && command.body.includes("!`"))
    withheld.push(
      `its shell "${command.shell}" is not one verbatim runs (only bash): its !\`cmd\` inlines stay as written`,
    );
  const fact: FactOf<"command_activated"> = {
    kind: "command_activated",
    messageId: mintId("msg"),
    turnId: place.turnId,
    name: command.name,
    path: command.path,
    scope: command.scope,
    ...(place.toolCallId ? { toolCallId: place.toolCallId } : {}),
    allow: mayGrant ? allow : [],
    deny: command.disallowedTools ?? [],
    ...(named.state === "ok" && formatModelRef(named.ref) !== formatModelRef(place.model) ? { model: named.ref } : {}),
    ...(effort ? { effort } : {}),
    ...(hooks && mayGrant ? { hooks } : {}),
    ...(withheld.length ? { withheld } : {}),
  };
  const acts = fact.allow.length || fact.deny.length || fact.model || fact.effort || fact.hooks || fact.withheld;
  return acts ? fact : undefined;
}

/** The model and thought level the turn's next request uses: the last acting command's that set one, else the session's. */
export function turnSettings(
  active: readonly FactOf<"command_activated">[] | undefined,
  session: { model: ModelRef; thoughtLevel: ThoughtLevel },
): { model: ModelRef; thoughtLevel: ThoughtLevel } {
  let { model, thoughtLevel } = session;
  for (const command of active ?? []) {
    if (command.model) model = command.model;
    if (command.effort) thoughtLevel = command.effort;
  }
  return { model, thoughtLevel };
}
