/**
 * What a session tells the host's notify command about its lifecycle (busy, needs you, done).
 * Only the user-facing session does: a subagent never relabels its root. Nothing happens when no
 * command is configured.
 */
import type { SessionStateFold } from "../../../replay/state.ts";
import { payloadOf, type CommonFields } from "../payload.ts";
import type { HookSettings } from "../settings.ts";
import { commandDeliverer } from "./command-deliverer.ts";
import { LifecycleNotifier } from "./lifecycle-notifier.ts";

export type HostEvent = "UserPromptSubmit" | "PermissionRequest" | "Stop" | "StopFailure";

export class HostNotifications {
  #notifier: LifecycleNotifier | undefined;

  constructor(
    private readonly settings: HookSettings,
    private readonly host: { state: SessionStateFold },
  ) {}

  /** Queues one event; never waits. `common` is called only when the event is delivered. */
  notify(event: HostEvent, common: () => CommonFields, fields: Record<string, unknown>): void {
    const command = this.settings.notifyCommand;
    if (!command || this.host.state.parentSessionId !== undefined) return;
    this.#notifier ??= new LifecycleNotifier(
      commandDeliverer(command, { cwd: this.host.state.cwd, env: this.settings.env }),
    );
    this.#notifier.emit(payloadOf(event, common(), fields));
  }

  /** Stops the notifications: once it resolves, nothing from this session is delivered again. */
  async close(): Promise<void> {
    await this.#notifier?.close();
  }
}
