/**
 * An `initialize` request the start path answered (src/start/early-initialize.ts) before the
 * agent loaded: the connection reads it again under its own id (stdio.ts) so that the SDK
 * handles it, and the app gives back the start path's answer (agent-app.ts), never written twice.
 */

/** The request as the client sent it, and the line written for it. */
export type AnsweredInitialize = { request: Record<string, unknown>; answer: string };

/** The id the already-answered `initialize` request is read under: no client request can carry it. */
export const ANSWERED_ID = "verbatim/answered-initialize";
