/**
 * What a session may do, from its facts alone: a fold restored from the replay cache (derived
 * data, which whoever can write the cache could have rewritten) has its roots, mode, config,
 * system prompt, tools, permission rules and grants replaced by what the session's authority
 * records (journal/facts/authority.ts) say. A cache may make a load faster; it never makes a
 * session able to do more. Pure.
 */
import type { StoredFact } from "../journal/facts/index.ts";
import { SessionStateFold } from "./state.ts";

/**
 * Sets `fold`'s authority to what `records` (the session's authority records up to the restored
 * state, in order) fold to; everything else in `fold` is left as restored.
 */
export function adoptAuthority(fold: SessionStateFold, records: readonly StoredFact[]): void {
  const facts = new SessionStateFold();
  for (const record of records) facts.apply(record.fact, record.seq);
  fold.cwd = facts.cwd;
  fold.additionalDirectories = facts.additionalDirectories;
  fold.parentSessionId = facts.parentSessionId;
  fold.subagentType = facts.subagentType;
  fold.systemPrompt = facts.systemPrompt;
  fold.tools = facts.tools;
  fold.modeId = facts.modeId;
  fold.availableModes = facts.availableModes;
  fold.configOptions = facts.configOptions;
  fold.rules.splice(0, fold.rules.length, ...facts.rules);
  fold.grantedDirectories.splice(0, fold.grantedDirectories.length, ...facts.grantedDirectories);
  // The settings files' rules are no authority record: a session loaded from its cache has none in
  // force until it records its own again (before its next turn), whatever the cache says.
  fold.permissionSettings = facts.permissionSettings;
}
