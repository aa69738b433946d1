/**
 * The subcommands' modules, each loaded when its command runs. None of them is needed to answer
 * `initialize`, and a bytecode bundle costs at start for every byte it holds: `src/cli.ts` reaches
 * them only through `src/cli/agent-entry.ts`, a bundle of its own (dist/agent.js, see
 * scripts/build.ts).
 */
export const commands = {
  setup: () => import("./setup.ts"),
  trust: () => import("./trust.ts"),
  demo: () => import("./demo.ts"),
  sessions: () => import("./sessions.ts"),
  watch: () => import("./watch.ts"),
  chat: () => import("./chat.ts"),
  run: () => import("./run.ts"),
  rewind: () => import("./rewind.ts"),
  showContext: () => import("./show-context.ts"),
  runArgs: () => import("./run-args.ts"),
  cliError: () => import("./cli-error.ts"),
  models: () => import("./models.ts"),
  doctor: () => import("./doctor.ts"),
  exportImport: () => import("./export-import.ts"),
  prune: () => import("./prune.ts"),
};
