/**
 * A small ACP client that folds every update into a view model per session, and answers
 * permission questions by a policy. The demo, `verbatim show`-style tools and the parity tests
 * use it; it speaks through the SDK's own client, which validates every message it receives.
 */
import * as acp from "@agentclientprotocol/sdk";
import type {
  ClientApp,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionNotification,
  StopReason,
} from "@agentclientprotocol/sdk";
import { emptyView, reduce, retractLastPrompt, type ViewModel } from "../view/view-model.ts";
import { dropRetracted } from "../view/drop-retracted.ts";
import { REWOUND_NOTIFICATION, rewoundParams } from "../protocol/extensions.ts";

export type PermissionPolicy = (
  request: RequestPermissionRequest,
) => RequestPermissionResponse | Promise<RequestPermissionResponse>;

/** Picks the first option of the given kind (or cancels when there is none). */
export const choose =
  (kind: "allow_once" | "allow_always" | "reject_once" | "reject_always"): PermissionPolicy =>
  (request) => {
    const option = request.options.find((o) => o.kind === kind);
    return { outcome: option ? { outcome: "selected", optionId: option.optionId } : { outcome: "cancelled" } };
  };

export class ViewClient {
  readonly #views = new Map<string, ViewModel>();
  readonly notifications: SessionNotification[] = [];
  readonly permissionRequests: RequestPermissionRequest[] = [];
  onUpdate: (notification: SessionNotification) => void = () => {};

  /**
   * `extend` registers more client methods on the app (e.g. `fs/*` and `terminal/*` handlers);
   * advertise the matching capabilities in `initialize`.
   */
  constructor(
    public policy: PermissionPolicy = choose("allow_once"),
    private readonly extend: (app: ClientApp) => ClientApp = (app) => app,
  ) {}

  view(sessionId: string): ViewModel {
    let view = this.#views.get(sessionId);
    if (!view) this.#views.set(sessionId, (view = emptyView()));
    return view;
  }

  app(): ClientApp {
    return this.extend(this.#app());
  }

  /** Tells the client how a prompt ended: a refusal takes the prompt and what followed it out of the view. */
  promptEnded(sessionId: string, stopReason: StopReason): void {
    if (stopReason === "refusal") retractLastPrompt(this.view(sessionId));
  }

  #app(): ClientApp {
    return (
      acp
        .client({ name: "verbatim-view-client" })
        .onNotification(acp.methods.client.session.update, ({ params }) => {
          this.notifications.push(params);
          reduce(this.view(params.sessionId), params.update);
          this.onUpdate(params);
        })
        // A followed session rewound by another client: its entries leave this view too.
        .onNotification(REWOUND_NOTIFICATION, rewoundParams, ({ params }) => {
          dropRetracted(this.view(params.sessionId), params.retracted);
        })
        .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
          this.permissionRequests.push(params);
          return this.policy(params);
        })
    );
  }
}
