/**
 * The sessions to offer in a directory: those recorded there, newest first, then those recorded
 * for the same repository and path inside it somewhere else (another machine's checkout in a
 * shared journal, another checkout here, an import), each naming where it ran.
 */
import type { RepositoryKey, SessionRow, FactStore } from "../../journal/store.ts";
import { readOrigin } from "./session-origin.ts";
import { defined } from "../../shared/defined.ts";

/** Which part of the listing a session is in: recorded here, or found by its repository. */
export type ListGroup = "here" | "repository";
export type ListedSession = SessionRow & { group: ListGroup; ranAt?: { host?: string; cwd: string } };
export type ListPosition = { group: ListGroup; updatedAt: string; sessionId: string };

/** The repository place `cwd` is in, when it is inside a checkout with a remote. */
export function repositoryOf(cwd: string): RepositoryKey | undefined {
  const git = readOrigin(cwd).git;
  return git?.remote !== undefined ? { remote: git.remote, innerPath: git.innerPath } : undefined;
}

/**
 * Up to `limit` sessions for `cwd` after `after` (as of `asOf`, see `ListQuery`), and whether
 * more follow. A session found by repository carries where it ran (`ranAt`: host and the
 * directory it started in).
 */
export async function listForCwd(
  store: FactStore,
  cwd: string,
  options: { limit: number; asOf?: string; after?: ListPosition },
): Promise<{ rows: ListedSession[]; more: boolean }> {
  const { limit, after } = options;
  const asOf = defined({ asOf: options.asOf });
  const rows: ListedSession[] = [];
  if (after?.group !== "repository") {
    const here = await store.list({ cwd, limit: limit + 1, ...asOf, ...defined({ after }) });
    if (here.length > limit)
      return { rows: here.slice(0, limit).map((row) => ({ ...row, group: "here" })), more: true };
    rows.push(...here.map((row): ListedSession => ({ ...row, group: "here" })));
  }
  const repository = repositoryOf(cwd);
  if (!repository) return { rows, more: false };
  const left = limit - rows.length;
  const elsewhere = await store.list({
    repository,
    exceptCwd: cwd,
    limit: left + 1,
    ...asOf,
    ...(after?.group === "repository" ? { after } : {}),
  });
  for (const row of elsewhere.slice(0, left))
    rows.push({ ...row, group: "repository", ranAt: await ranAt(store, row.sessionId) });
  return { rows, more: elsewhere.length > left };
}

async function ranAt(store: FactStore, sessionId: string): Promise<{ host?: string; cwd: string } | undefined> {
  const start = (await store.lastOf(sessionId, ["session_started"]))?.fact;
  if (start?.kind !== "session_started") return undefined;
  return { ...defined({ host: start.origin?.host }), cwd: start.cwd };
}
