/**
 * `session/set_title` (ACP unstable, SDK 2.4.0, `sessionCapabilities.title`): the user names a
 * session. It answers `{title}`, the title as stored (normalized: one line, trimmed, at most 200
 * characters), once it is recorded (core/session/retitle.ts). A session open here is retitled as it
 * runs, and its clients are shown the `session_info_update`; any other session `session/list` would
 * return is retitled in the journal, when no live process writes it. docs/acp-language.md says this.
 */
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { JournalStore } from "../journal/store.ts";
import { retitleOpen, retitleStored } from "../core/session/retitle.ts";
import { typed, unknownSession } from "./errors.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import type { OpenSessions } from "./open-sessions.ts";
import { checkSessionId } from "./request-checks.ts";

export function titleHandlers(app: HandlerRegistry, store: JournalStore, sessions: OpenSessions): void {
  app.onRequest(acp.methods.agent.session.setTitle, ({ params }) =>
    typed(async () => {
      checkSessionId(params.sessionId);
      await sessions.lifecycle.settled(params.sessionId);
      const open = sessions.get(params.sessionId);
      if (open) {
        const title = await retitleOpen(open.runtime, params.title);
        await sessions.flush();
        return { title };
      }
      if (!(await store.info(params.sessionId))) throw unknownSession(params.sessionId);
      return { title: await retitleStored(store, params.sessionId, params.title) };
    }),
  );
}
