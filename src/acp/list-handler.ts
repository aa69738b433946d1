/**
 * `session/list` for history views: top-level sessions that received a prompt, newest first by
 * last activity, in cursor pages read as of the first page's moment (see `ListQuery`). Each row
 * carries what the RFD "session list for history views" names: `updatedAt` in the schema's
 * field, the rest (`state`, `lastTurnEndedAt`, `cost`) under `_meta.verbatim`, as the stable
 * `SessionInfo` has no field for them. A listing for a `cwd` continues, after the sessions
 * recorded there, with those of the same repository and inner path recorded elsewhere, each
 * marked `_meta.verbatim.foundBy = "repository"` with `ranAt: {host, cwd}`.
 */
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { SessionInfo } from "@agentclientprotocol/sdk/unstable";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { sessionSummary } from "../core/session/session-summary.ts";
import { listForCwd, type ListedSession } from "../core/session/list-here.ts";
import { throwIfCancelled, typed } from "./errors.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import { decodeCursor, encodeCursor, type Position } from "./list-cursor.ts";
import { checkDirectories } from "./request-checks.ts";
import { defined } from "../shared/defined.ts";

const PAGE_SIZE = 50;

export function listHandlers(app: HandlerRegistry, deps: EngineDeps): void {
  app.onRequest(acp.methods.agent.session.list, ({ params, signal }) =>
    typed(async () => {
      // A list the client cancelled ($/cancel_request) while it waited is not read.
      throwIfCancelled(signal);
      if (params.cwd != null) checkDirectories(params.cwd, []);
      const from = params.cursor ? decodeCursor(params.cursor) : undefined;
      const asOf = from?.asOf ?? new Date().toISOString();
      const { rows, more } =
        params.cwd != null
          ? await listForCwd(deps.store, params.cwd, { limit: PAGE_SIZE, asOf, ...defined({ after: from }) })
          : await listAll(deps, asOf, from);
      const last = rows[rows.length - 1];
      return {
        sessions: await Promise.all(rows.map((row) => sessionInfo(deps, row))),
        ...(more && last
          ? {
              nextCursor: encodeCursor({
                asOf,
                updatedAt: last.updatedAt,
                sessionId: last.sessionId,
                group: last.group,
              }),
            }
          : {}),
      };
    }),
  );
}

async function listAll(
  deps: EngineDeps,
  asOf: string,
  from: Position | undefined,
): Promise<{ rows: ListedSession[]; more: boolean }> {
  const rows = await deps.store.list({
    limit: PAGE_SIZE + 1,
    asOf,
    ...(from ? { after: { updatedAt: from.updatedAt, sessionId: from.sessionId } } : {}),
  });
  return { rows: rows.slice(0, PAGE_SIZE).map((row) => ({ ...row, group: "here" })), more: rows.length > PAGE_SIZE };
}

async function sessionInfo(deps: EngineDeps, row: ListedSession): Promise<SessionInfo> {
  const summary = await sessionSummary(deps.store, row.sessionId);
  return {
    sessionId: row.sessionId,
    cwd: row.cwd,
    ...(row.additionalDirectories.length ? { additionalDirectories: row.additionalDirectories } : {}),
    ...defined({ title: row.title }),
    updatedAt: row.updatedAt,
    _meta: {
      verbatim: {
        ...summary,
        ...defined({ forkOf: row.forkOf }),
        ...(row.group === "repository" ? { foundBy: "repository", ranAt: row.ranAt } : {}),
      },
    },
  };
}
