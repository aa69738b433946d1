/**
 * `_verbatim/session/rewind` and `_verbatim/session/edit_prompt`: the session-rewind RFD's
 * `session/rewind` and `session/edit_prompt`, as extension methods (SDK 2.4.0 has neither). A
 * rewind answers the RFD's `{lastMessageId, remainingMessageCount}` (the count when the session's
 * index holds every message: not for one restored from the replay cache state) with
 * `_meta.verbatim.retracted`, the ids of the messages and
 * tool calls the client drops (every entry it shows after that message); nothing else is sent for
 * it (the rewind's fact shows nothing). An edit answers as `session/prompt` does, once its new
 * prompt's turn ends, with the same `_meta.verbatim.retracted`. With `files: true` the restore is
 * its own card after the kept message, asked about as an edit is, before the answer
 * (core/session/restore-step.ts); the answer's `_meta.verbatim.files` says what it did and
 * `_meta.verbatim.restore` how it ended. docs/acp-language.md says this.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { Rewound, RewindTarget } from "../core/session/rewind.ts";
import { typed, unknownSession } from "./errors.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import type { OpenSessions } from "./open-sessions.ts";
import { checkPromptBlocks } from "../core/prompt/prompt-blocks.ts";
import { checkSessionId } from "./request-checks.ts";
import { promptAnswered } from "./prompt-handlers.ts";
import { EDIT_PROMPT_METHOD, REWIND_METHOD } from "../protocol/extensions.ts";
import { defined } from "../shared/defined.ts";

export function rewindHandlers(app: HandlerRegistry, sessions: OpenSessions): void {
  const rewind = async (sessionId: string, target: RewindTarget, files: boolean | undefined): Promise<Rewound> => {
    checkSessionId(sessionId);
    await sessions.lifecycle.settled(sessionId);
    const open = sessions.get(sessionId);
    if (!open)
      throw unknownSession(sessionId, "is not open on this connection; call session/load or session/resume first");
    const rewound = await open.runtime.rewind(target, { files: files ?? false });
    await sessions.flush();
    return rewound;
  };

  app.onExtension(REWIND_METHOD, ({ params }) =>
    typed(async () => {
      const rewound = await rewind(params.sessionId, { toMessageId: params.toMessageId }, params.files);
      return {
        lastMessageId: rewound.lastMessageId ?? null,
        ...defined({ remainingMessageCount: rewound.remainingMessageCount }),
        _meta: { verbatim: shownMeta(rewound) },
      };
    }),
  );

  app.onExtension(EDIT_PROMPT_METHOD, ({ params }) =>
    typed(async () => {
      const blocks = params.newContent as ContentBlock[];
      checkPromptBlocks(blocks);
      const rewound = await rewind(params.sessionId, { beforeMessageId: params.messageId }, params.files);
      const open = sessions.get(params.sessionId);
      if (!open) throw unknownSession(params.sessionId);
      const stopReason = await promptAnswered(sessions, open.runtime, blocks);
      return { stopReason, _meta: { verbatim: shownMeta(rewound) } };
    }),
  );
}

/** What the client drops, the turn the rewind cancelled first, and how its file restore ended. */
function shownMeta(rewound: Rewound) {
  const restore = rewound.restore;
  return {
    retracted: rewound.retracted,
    ...(rewound.cancelledTurnId ? { cancelledTurnId: rewound.cancelledTurnId } : {}),
    ...(restore
      ? {
          files: restore.files,
          restore: { restoreId: restore.restoreId, outcome: restore.outcome, ...defined({ reason: restore.reason }) },
        }
      : {}),
  };
}
