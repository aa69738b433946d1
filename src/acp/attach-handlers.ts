/**
 * `_verbatim/session/attach` and `_verbatim/session/detach` (src/protocol/extensions.ts): an observer
 * follows a session that any process runs, on this machine or another sharing the journal. The
 * attach answers once the history it asked for is sent (`{sessionId, role, position, writer, modes,
 * configOptions}`: the last record the history shows, the live process holding the session, if
 * any, and the session's mode and config options then, as session/load answers them); then each
 * record's updates follow as its writer commits it, with `_meta.verbatim.position`. A controller
 * is also asked the session's permission questions, its answers claimed for the writer (its only
 * write: journal/answer-claims.ts). A follower otherwise reads the journal only (core/follow/session-follower.ts). docs/acp-language.md says this.
 */
import { RequestError, type AgentContext } from "@agentclientprotocol/sdk/unstable";
import type { Projector } from "../replay/project.ts";
import { log } from "../shared/log.ts";
import type { AskQuestion, OpenQuestion } from "../core/follow/open-questions.ts";
import type { ClaimedAnswer } from "../journal/answer-claims.ts";
import { clientHost } from "./client-host.ts";
import { askClient } from "./permission-asker.ts";
import { journalClaims } from "../core/permissions/answer-race.ts";
import { sendHistory } from "../core/follow/session-follower.ts";
import type { FollowStore } from "../core/follow/follow-store.ts";
import type { ReplaySink } from "../core/session/replay-sink.ts";
import type { ControllerStore, FactStore } from "../journal/store.ts";
import type { JournalWatch } from "../journal/journal-watch.ts";
import { shownModesAt } from "../core/session/stored-sessions.ts";
import { defined } from "../shared/defined.ts";
import { attached, followAttached } from "../core/follow/kept-attachment.ts";
import { ATTACH_METHOD, DETACH_METHOD, type ExtensionParams, REWOUND_NOTIFICATION } from "../protocol/extensions.ts";
import { typed, unknownSession } from "./errors.ts";
import type { Followers } from "./followers.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import type { OpenSessions } from "./open-sessions.ts";
import { checkSessionId } from "./request-checks.ts";
import type { UpdateSender } from "./update-sender.ts";

/** A follower's updates to this client: those past the history with their position (`_meta.verbatim.position`). */
const sinkOf = (sender: UpdateSender, sessionId: string): ReplaySink => ({
  update: (update, position) =>
    sender.send(sessionId, update, position === undefined ? undefined : { verbatim: { position } }),
  pressure: () => sender.pressure(),
  rewound: (retracted, position) =>
    sender.sendExtension(REWOUND_NOTIFICATION, { sessionId, retracted, _meta: { verbatim: { position } } }),
  stopIfCancelled: () => undefined,
  end: () => sender.flush(),
});

export function attachHandlers(
  app: HandlerRegistry,
  store: FollowStore,
  sessions: OpenSessions,
  followers: Followers,
): void {
  app.onExtension(ATTACH_METHOD, ({ params, client, requestId }) =>
    typed(async () => {
      const { sessionId } = params;
      await checkAttachable(store, sessions, params);
      await followers.stop(sessionId);
      const sender = sessions.sender(client);
      const sink = sinkOf(sender, sessionId);
      const projector = sessions.newProjector(true);
      projector.context.sessionId = sessionId;
      const history = {
        policy: params.historyPolicy ?? "full",
        ...(params.replayFrom !== undefined ? { replayFrom: params.replayFrom } : {}),
      };
      const role = params.role ?? "observer";
      const ask = role === "controller" ? answerAndClaim(store, sessions, client, sessionId, projector) : undefined;
      const following = await sendHistory(store, sessionId, projector, history, sink, ask);
      await sender.flush();
      // A controller is there for the writer (its queued prompts run) while its attachment row lives.
      const attachment = role === "controller" ? await attached(store, sessionId, sessions.answerer()) : undefined;
      // Live updates follow the answer (which says where the history ends).
      sessions.afterResponse.then(requestId, () =>
        followers.start(
          sessionId,
          { role, following, ...defined({ attachmentId: attachment?.attachmentId }) },
          (signal) => followAttached(store, sessionId, { following, sink, attachment }, signal),
        ),
      );
      const position = following.cursor.last;
      const [writer, shown] = await Promise.all([store.holder(sessionId), shownModesAt(store, sessionId, position)]);
      // As session/load's answer: the mode and config options as of the history sent (updates follow).
      return { sessionId, role, position, writer: writer ?? null, ...shown };
    }),
  );

  app.onExtension(DETACH_METHOD, ({ params }) =>
    typed(async () => {
      checkSessionId(params.sessionId);
      if (!(await followers.stop(params.sessionId)))
        throw unknownSession(params.sessionId, "is not attached on this connection");
      return {};
    }),
  );
}

/**
 * A controller's question: asked of its client as the writer's client is asked it (a permission
 * question with the same card and `_meta.verbatim.requestId`; a form through `elicitation/create`,
 * when the client answers forms); its answer is claimed for the writer, which records the claim
 * that holds (the first, from whichever client). Withdrawn (the request cancelled) once the
 * journal records an answer. A failure to ask or claim loses only this client's answer.
 */
function answerAndClaim(
  store: ControllerStore & JournalWatch,
  sessions: OpenSessions,
  client: AgentContext,
  sessionId: string,
  projector: Projector,
): AskQuestion {
  const asker = askClient(client, sessionId, projector);
  const claims = journalClaims(store, sessionId, sessions.answerer());
  const host = clientHost(client, sessions.profile().capabilities, sessionId);
  const answerOf = async (question: OpenQuestion, signal: AbortSignal): Promise<ClaimedAnswer | undefined> => {
    if (question.kind === "permission") return { kind: "permission", outcome: await asker(question.question, signal) };
    if (!host.askForm) return undefined;
    return { kind: "form", ...(await host.askForm({ ...question.form, toolCallId: question.toolCallId }, signal)) };
  };
  return (question, signal) => {
    answerOf(question, signal)
      .then((answer) => {
        if (signal.aborted || !answer) return undefined;
        return claims.claim(question.key, answer);
      })
      .catch((error: unknown) => {
        if (!signal.aborted) log.warn(`could not answer the question ${question.key} of ${sessionId}`, error);
      });
  };
}

async function checkAttachable(
  store: Pick<FactStore, "info" | "lastSeq">,
  sessions: OpenSessions,
  params: ExtensionParams<typeof ATTACH_METHOD>,
): Promise<void> {
  const { sessionId, replayFrom } = params;
  checkSessionId(sessionId);
  if (!(await store.info(sessionId))) throw unknownSession(sessionId);
  if (sessions.get(sessionId))
    throw RequestError.invalidRequest(
      { sessionId },
      `session ${sessionId} is open on this connection: its updates are sent here already`,
    );
  if (replayFrom === undefined) return;
  const last = await store.lastSeq(sessionId);
  if (replayFrom > last)
    throw RequestError.invalidParams(
      { replayFrom, position: last },
      `position ${replayFrom} is past the session's last (${last}); attach without replayFrom`,
    );
}
