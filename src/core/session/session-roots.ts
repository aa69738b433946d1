/**
 * A session's directories in this process: its cwd, its extra roots (those recorded at its start,
 * unless a load or resume activated others), and those its permission settings add.
 */
import { hostname } from "node:os";
import type { SessionStateFold } from "../../replay/state.ts";
import { settingsDirectories, settingsInForce } from "../permissions/settings-rules.ts";

export class SessionRoots {
  #activated: string[] | undefined;

  constructor(private readonly state: SessionStateFold) {}

  /** The extra roots file tools may use. */
  get additional(): string[] {
    return this.#activated ?? this.state.additionalDirectories;
  }

  /**
   * The extra roots the client activated on `session/load` or `session/resume` (ACP: the complete
   * list, none when omitted). They hold for this process; the journal keeps the list the session
   * started with, which a later load replaces again.
   */
  activate(directories: string[]): void {
    this.#activated = directories;
  }

  /** Every directory file tools may use: the cwd, the extra roots, and those the permission settings in force add. */
  all(): string[] {
    const settings = settingsInForce(this.state, hostname());
    return [this.state.cwd, ...this.additional, ...(settings ? settingsDirectories(settings) : [])];
  }
}
