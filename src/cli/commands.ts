/**
 * The subcommands' modules, each loaded when its command runs. The build makes this module its own
 * bundle (dist/commands.js, see scripts/build.ts): none of it is needed to serve ACP, and a
 * bytecode bundle costs at start for every byte it holds, so the agent's start bundle leaves it out.
 */
export const commands = {
  setup: () => import("./setup.ts"),
  trust: () => import("./trust.ts"),
  demo: () => import("./demo.ts"),
  sessions: () => import("./sessions.ts"),
  chat: () => import("./chat.ts"),
  run: () => import("./run.ts"),
  runArgs: () => import("./run-args.ts"),
  cliError: () => import("./cli-error.ts"),
  models: () => import("./models.ts"),
  doctor: () => import("./doctor.ts"),
  exportImport: () => import("./export-import.ts"),
};
