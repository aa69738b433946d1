/**
 * Every fact a session can record, as one discriminated union on `kind`. The zod schemas are the
 * single source of the fact types.
 */
import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { hookFacts } from "./hooks.ts";
import { importFacts } from "./imports.ts";
import { linkFacts } from "./links.ts";
import { jobFacts } from "./jobs.ts";
import { sandboxFacts } from "./sandbox.ts";
import { commandFacts } from "./commands.ts";
import { contextFacts } from "./context.ts";
import { compactionFacts } from "./compaction.ts";
import { mcpFacts } from "./mcp.ts";
import { permissionFacts } from "./permissions.ts";
import { questionFacts } from "./questions.ts";
import { restoreFacts } from "./restore.ts";
import { rewindFacts } from "./rewind.ts";
import { sessionFacts } from "./session.ts";
import { toolFacts } from "./tools.ts";
import { subagentFacts } from "./subagents.ts";
import { turnFacts } from "./turn.ts";

/**
 * Every kind's schema, in the union's order. Each is built when first used (lazy-schema.ts): a
 * process that decodes a few kinds (a load from the replay cache decodes one or two) builds those.
 */
export const factSchemas = [
  ...sessionFacts,
  ...turnFacts,
  ...toolFacts,
  ...permissionFacts,
  ...questionFacts,
  ...hookFacts,
  ...mcpFacts,
  ...commandFacts,
  ...contextFacts,
  ...compactionFacts,
  ...subagentFacts,
  ...importFacts,
  ...rewindFacts,
  ...restoreFacts,
  ...linkFacts,
  ...jobFacts,
  ...sandboxFacts,
] as const;

export const factSchema = lazySchema(() => z.discriminatedUnion("kind", factSchemas));

export type Fact = z.infer<typeof factSchema>;
export type FactKind = Fact["kind"];
export type FactOf<K extends FactKind> = Extract<Fact, { kind: K }>;

/** A fact as stored: its place in the session and when it happened. */
export type StoredFact = { seq: number; at: string; fact: Fact };

export * from "./commands.ts";
export * from "./compaction.ts";
export * from "./context.ts";
export * from "./display-shapes.ts";
export * from "./hooks.ts";
export * from "./imports.ts";
export * from "./links.ts";
export * from "./jobs.ts";
export * from "./mcp.ts";
export * from "./subagents.ts";
export * from "./permissions.ts";
export * from "./questions.ts";
export * from "./restore.ts";
export * from "./rewind.ts";
export * from "./sandbox.ts";
export * from "./session.ts";
export * from "./tools.ts";
export * from "./turn.ts";
