/**
 * One command's sandbox: the command line wrapped for the runtime, its policy recorded on the
 * card before it starts (`command_sandboxed`), and, when it has ended, what the sandbox refused it
 * recorded on the same card (`sandbox_violations`) and returned for the model's result. A command
 * the gate let run outside the sandbox is returned as given.
 */
import type { CommandSandbox, CommandSandboxOptions, PreparedCommand } from "./command-types.ts";

export type { CommandSandbox, CommandSandboxOptions, PreparedCommand, SandboxVerdicts } from "./command-types.ts";

const unconfined = (command: string): PreparedCommand => ({
  command,
  sandboxed: false,
  finish: async () => ({ violations: [], dropped: 0, retryOutside: false }),
});

/**
 * A command's sandbox. What drives the runtime is its own bundle (sandbox-run.ts), loaded by the
 * first confined command: a session that runs none never loads it.
 */
export function commandSandbox(options: CommandSandboxOptions): CommandSandbox {
  return {
    async prepare(command, shown) {
      if (!options.confinement?.sandboxed) return unconfined(command);
      const run = await import("./sandbox-run.ts");
      return run.prepareSandboxed(options, options.confinement, command, shown);
    },
  };
}
