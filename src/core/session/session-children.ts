/**
 * A session's subagents: each a child session of it (SessionRuntime.create with ChildParams), with
 * its tools but those only a top-level session offers (and, for a custom subagent, only those its
 * file lists), its model and mode, and its MCP secrets kept from the child's commands too.
 */
import type { Fact } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import type { ConfigValues } from "../config/config-options.ts";
import { namedModel } from "../config/model-alias.ts";
import { formatModelRef } from "../config/model-ref.ts";
import { mintId } from "../ids.ts";
import type { ModelChoice } from "../config/config-options.ts";
import { readOnlyGate } from "../permissions/call-gate.ts";
import { agentFiles } from "../subagents/agent-files.ts";
import { type ChildSession, subagentLauncher } from "../subagents/subagent-runner.ts";
import type { Tool } from "../tools/tool.ts";
import type { SubagentKind } from "../tools/subagent-launcher.ts";
import { defined } from "../../shared/defined.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import { commandPlace } from "./command-place.ts";
import type { ChildParams, NewSessionParams, SessionIo } from "./session-types.ts";

/** The tools only a top-level session offers: a subagent starts no subagent, asks the user nothing, presents no plan. */
export const PARENT_ONLY = ["Task", "AskUserQuestion", "ExitPlanMode"];

/** What a session's subagents take of it (SessionRuntime gives it). */
export type ParentSession = {
  sessionId: string;
  io: SessionIo;
  state: SessionStateFold;
  /** The built-in tools the parent offers. */
  tools: ToolRegistry;
  mcpSecrets: string[];
  /** What the parent has when a child starts: its MCP tools, its extra roots, its config. */
  mcpTools(): Tool[];
  additionalDirectories(): string[];
  configValues(): ConfigValues;
  /** The models this process lists (a subagent's type may name one). */
  models(): ModelChoice[];
  record(fact: Fact): Promise<void>;
  /** Cancels the parent's turn (the user cancelled at a child's question: the turn they see is the parent's). */
  cancel(): void;
  /** Starts a child session: SessionRuntime.create, handed over so that this module does not import the runtime back. */
  create(io: (sessionId: string) => SessionIo, params: NewSessionParams, child: ChildParams): Promise<ChildSession>;
};

/** Starts subagents as child sessions of `parent`. */
export function childSessions(parent: ParentSession) {
  return subagentLauncher(
    {
      record: (fact) => parent.record(fact),
      spawn: async (kind, parentToolCallId, publish, command) =>
        parent.create(
          (sessionId) => ({
            publish,
            host: parent.io.host,
            gate: parent.io.childGate?.({ sessionId, parentToolCallId }) ?? readOnlyGate,
            cancelOuterTurn: () => parent.cancel(),
          }),
          { cwd: parent.state.cwd, additionalDirectories: parent.additionalDirectories() },
          {
            parentSessionId: parent.sessionId,
            kind,
            tools: onlyListed(parent.tools.with(parent.mcpTools()).without(PARENT_ONLY), kind.tools),
            values: await childValues(parent, kind),
            mcpSecrets: parent.mcpSecrets,
            ...defined({ command }),
          },
        ),
    },
    async () => (await agentFiles(commandPlace(parent.state))).agents,
  );
}

/**
 * What a subagent of `kind` starts with: its parent's mode and thought level, and the model its
 * type names (config/model-alias.ts), else the parent's. A model this process does not list is
 * told in a notice and the parent's is used.
 */
async function childValues(parent: ParentSession, kind: SubagentKind): Promise<ConfigValues> {
  const values = parent.configValues();
  const named = namedModel(kind.model, values.model, parent.models());
  if (named.state === "ok") return { ...values, model: named.ref };
  if (named.state === "unknown")
    await parent.record({
      kind: "notice_shown",
      messageId: mintId("msg"),
      severity: "warning",
      title: `The subagent ${kind.name} names the model "${named.name}", which this verbatim does not list; it runs on ${formatModelRef(values.model)}`,
    });
  return values;
}

/** A custom subagent's tools: only those its file lists (all of them when it lists none). */
function onlyListed(tools: ToolRegistry, listed: string[] | undefined): ToolRegistry {
  if (!listed) return tools;
  return tools.without(
    tools
      .all()
      .map((t) => t.name)
      .filter((name) => !listed.includes(name)),
  );
}
