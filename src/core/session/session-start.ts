/**
 * What a new session starts with, before its first fact is recorded: its id, model and config
 * (a child session, a subagent's, takes its parent's), the tools it offers, the permission
 * settings in force (read before the first fact: their defaultMode is the mode a session starts
 * in), its first fact (session-started.ts) and the notices a top-level session shows after it.
 */
import type { ContextSource, Fact, FactOf } from "../../journal/facts/index.ts";
import type { SessionRow } from "../../journal/store.ts";
import { defined } from "../../shared/defined.ts";
import { EngineError } from "../errors.ts";
import { mintId } from "../ids.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import { currentSettings } from "./permission-settings-sync.ts";
import { sessionStartedFact, startNotices, startValues } from "./session-started.ts";
import type { ChildParams, EngineDeps, NewSessionParams } from "./session-types.ts";

export type SessionStart = {
  sessionId: string;
  tools: ToolRegistry;
  /** The journal's row for the session, and its first fact. */
  row: SessionRow;
  fact: FactOf<"session_started">;
  /** The permission settings read, recorded right after the first fact. */
  settings: ReturnType<typeof currentSettings> | undefined;
  /** What a top-level session shows after its first fact (instruction files left out or cut, the catalog's warnings). */
  notices: Fact[];
  /** What a top-level session's system prompt was built from (recorded once the client knows the session). */
  sources: ContextSource[] | undefined;
  /** The claudeMdExcludes patterns the prompt was built under, and what they kept out. */
  excludes: Pick<FactOf<"context_given">, "excludes" | "excluded">;
};

/** Throws EngineError `no_provider` when no model is configured. */
export async function sessionStart(
  deps: EngineDeps,
  params: NewSessionParams,
  child: ChildParams | undefined,
): Promise<SessionStart> {
  const catalog = deps.catalogFor(params.cwd);
  const model = child?.values.model ?? catalog.defaultModel();
  if (!model) throw new EngineError("no_provider", catalog.setupHint);
  const sessionId = mintId("ses");
  const now = new Date().toISOString();
  const settings = deps.hooks ? currentSettings(deps.hooks, params.cwd) : undefined;
  const values = child?.values ?? startValues(catalog, model, settings);
  const tools = child?.tools ?? deps.tools;
  const started = await sessionStartedFact(params, {
    agentVersion: deps.agentVersion,
    today: now.slice(0, 10),
    tools,
    values,
    models: catalog.models(),
    ...defined({ child }),
  });
  const { prompt } = started;
  return {
    sessionId,
    tools,
    row: {
      sessionId,
      cwd: params.cwd,
      additionalDirectories: params.additionalDirectories,
      createdAt: now,
      updatedAt: now,
      ...defined({ parentSessionId: child?.parentSessionId }),
    },
    fact: started.fact,
    settings,
    notices: child ? [] : startNotices(catalog.warnings(), prompt.skipped, prompt.cut),
    sources: child ? undefined : prompt.sources,
    excludes: { excludes: prompt.excludes, excluded: prompt.excluded },
  };
}
