/**
 * Live-versus-reload parity: run a scenario live through the SDK's client against a verbatim
 * process, fold every update into a view model, reopen the session in a fresh process with
 * `session/load`, fold again, and compare the two view models field by field; and check that
 * `verbatim show` draws the session as the rendering of what that load sent.
 *
 * The journal is SQLite under the sandbox's home, or PostgreSQL (a database of the scenario's own
 * on the test run's server) with `store: "postgres"`, or for every scenario with
 * VERBATIM_TEST_STORE=postgres in the environment.
 */
import type { ClientContext, McpServer, SessionNotification } from "@agentclientprotocol/sdk";
import { comparable } from "../../src/cli/demo.ts";
import { sessionTranscript } from "../../src/cli/sessions.ts";
import { openJournal } from "../../src/core/config/open-journal.ts";
import { TranscriptRecorder } from "../../src/view/transcript.ts";
import type { ViewClient } from "../../src/client/view-client.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import { connectProcess, load, newSession, type ClientOptions } from "../support/acp-session.ts";
import { freshDatabase } from "../support/postgres-server.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

export type LiveRun = { ctx: ClientContext; client: ViewClient; sessionId: string; box: Sandbox };

export type ParityResult = {
  live: ViewModel;
  reloaded: ViewModel;
  differences: string[];
  sessionId: string;
  box: Sandbox;
  liveUpdates: number;
  reloadUpdates: number;
  /** Every update each client received, in order. */
  liveNotifications: SessionNotification[];
  reloadNotifications: SessionNotification[];
  /** Permission questions and client method calls (fs, terminal) the reload made: always 0. */
  reloadAsked: number;
};

export async function parity(
  model: string,
  drive: (run: LiveRun) => Promise<void>,
  options: ClientOptions & {
    box?: Sandbox;
    reload?: ClientOptions;
    /** MCP servers given to `session/new`, and to `session/load` unless `reloadMcpServers` says otherwise. */
    mcpServers?: McpServer[];
    reloadMcpServers?: McpServer[];
    store?: "sqlite" | "postgres";
  } = {},
): Promise<ParityResult> {
  const box = options.box ?? sandbox(model);
  const store = options.store ?? (process.env.VERBATIM_TEST_STORE === "postgres" ? "postgres" : "sqlite");
  if (store === "postgres" && box.env.VERBATIM_JOURNAL === undefined) box.env.VERBATIM_JOURNAL = await freshDatabase();
  const live = await connectProcess(box.env, options);
  let sessionId = "";
  try {
    sessionId = (await newSession(live.ctx, box.workspace, options.mcpServers)).sessionId;
    await drive({ ctx: live.ctx, client: live.client, sessionId, box });
  } finally {
    await live.close();
  }
  // The reloading client offers what the live one did unless told otherwise; a reload must use none of it.
  const callsBefore = options.services?.calls.length ?? 0;
  // The reload is served before the engine has loaded (replay-first.ts); the second one below after it.
  const fresh = await connectProcess(
    { ...box.env, VERBATIM_REPLAY_FIRST: "always" },
    options.reload ?? {
      ...(options.capabilities ? { capabilities: options.capabilities } : {}),
      ...(options.services ? { services: options.services } : {}),
    },
  );
  try {
    await load(fresh.ctx, sessionId, box.workspace, options.reloadMcpServers ?? options.mcpServers);
  } finally {
    await fresh.close();
  }
  await sameWithoutReplayCache(box, sessionId, fresh.client.notifications, options.reload ?? options);
  const liveView = live.client.view(sessionId);
  const reloaded = fresh.client.view(sessionId);
  const plainLoad = projectsAsPlainClient(options.reload ?? options)
    ? fresh.client.notifications
    : await loadAsPlainClient(box, sessionId);
  return {
    live: liveView,
    reloaded,
    differences: [
      ...diffValues(comparable(liveView), comparable(reloaded)),
      ...(await showDifferences(box, sessionId, plainLoad)),
    ],
    sessionId,
    box,
    liveUpdates: live.client.notifications.length,
    reloadUpdates: fresh.client.notifications.length,
    liveNotifications: live.client.notifications,
    reloadNotifications: fresh.client.notifications,
    reloadAsked: fresh.client.permissionRequests.length + (options.services?.calls.length ?? 0) - callsBefore,
  };
}

/** A reload client whose updates `verbatim show` draws: one that advertised neither ACP notices nor compaction updates. */
function projectsAsPlainClient(options: ClientOptions): boolean {
  const session = (options.capabilities ?? options.services?.capabilities())?.session;
  return session?.notices == null && session?.compaction == null;
}

async function loadAsPlainClient(box: Sandbox, sessionId: string): Promise<SessionNotification[]> {
  const plain = await connectProcess(box.env);
  try {
    await load(plain.ctx, sessionId, box.workspace);
  } finally {
    await plain.close();
  }
  return plain.client.notifications;
}

/**
 * `verbatim show`'s transcript against the rendering of the updates `session/load` sent a plain
 * client: one difference (the first line that differs) or none.
 */
async function showDifferences(box: Sandbox, sessionId: string, loaded: SessionNotification[]): Promise<string[]> {
  const store = openJournal(box.env);
  let shown: string;
  try {
    shown = await sessionTranscript(store, sessionId);
  } finally {
    await store.close();
  }
  const drawn = new TranscriptRecorder();
  for (const n of loaded) if (n.sessionId === sessionId) drawn.apply(n.update);
  const expected = drawn.render();
  if (shown === expected) return [];
  const a = shown.split("\n");
  const b = expected.split("\n");
  const line = a.findIndex((l, i) => l !== b[i]);
  const at = line < 0 ? a.length : line;
  return [`show: line ${at + 1} is ${JSON.stringify(a[at])}, load draws ${JSON.stringify(b[at])}`];
}

/**
 * Every parity scenario's reload is replayed a second time from the facts alone (the replay cache
 * off), and the other way a load is served (after the engine has loaded, where the reload was
 * served before it: replay-first.ts): it must send exactly what the reload did.
 */
async function sameWithoutReplayCache(
  box: Sandbox,
  sessionId: string,
  reloaded: SessionNotification[],
  options: ClientOptions,
): Promise<void> {
  const factsOnly = await connectProcess(
    { ...box.env, VERBATIM_REPLAY_CACHE: "off", VERBATIM_REPLAY_FIRST: "off" },
    {
      ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    },
  );
  try {
    await load(factsOnly.ctx, sessionId, box.workspace);
  } catch {
    return; // A reload the scenario expects to fail (it checks that itself) has nothing to compare.
  } finally {
    await factsOnly.close();
  }
  const a = JSON.stringify(reloaded.filter((n) => n.sessionId === sessionId));
  const b = JSON.stringify(factsOnly.client.notifications.filter((n) => n.sessionId === sessionId));
  if (a !== b)
    throw new Error(`session ${sessionId}: the reload sent other updates than a replay of its facts alone\n${a}\n${b}`);
}

/** The texts of a view's messages with a given role, in timeline order. */
export function texts(view: ViewModel, role: "user" | "agent" | "thought"): string[] {
  return view.timeline
    .filter((k) => k.startsWith("message:"))
    .map((k) => view.messages[k.slice("message:".length)])
    .filter((m) => m?.role === role)
    .map((m) => m!.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join(""));
}

export const cards = (view: ViewModel) =>
  view.timeline.filter((k) => k.startsWith("tool:")).map((k) => view.toolCalls[k.slice("tool:".length)]!);
