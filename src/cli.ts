#!/usr/bin/env bun
/**
 * verbatim's entry point. With no arguments it is an ACP agent on stdio (stdout carries only
 * protocol messages). Subcommands: demo, sessions, show.
 */
import { VERSION } from "./version.ts";

const USAGE = `verbatim ${VERSION}: an ACP coding agent whose sessions reopen exactly as they were shown live

usage:
  verbatim                      run the ACP agent on stdio (what editors launch)
  verbatim demo [--keep]        run a scripted session offline, reopen it, and check parity
  verbatim sessions [--cwd DIR] [--json]
                                list recorded sessions, newest first
  verbatim show ID              print a session as a client sees it after reopening
  verbatim --version

environment:
  VERBATIM_MODEL=<provider>/<model>   the model (e.g. scripted/demo)
  VERBATIM_HOME                       where the journal lives (default $XDG_DATA_HOME/verbatim)
  VERBATIM_DURABILITY=strict          fsync every append
`;

// node:util costs milliseconds to load: only subcommands that parse arguments load it.
const parseArgs = async () => (await import("node:util")).parseArgs;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined: {
      // The engine (journal, providers, tools) loads on the first session method, not here.
      const { serveStdio } = await import("./acp/stdio.ts");
      await serveStdio();
      return 0;
    }
    case "demo": {
      const { values } = (await parseArgs())({ args: rest, options: { keep: { type: "boolean" } } });
      const { runDemo } = await import("./cli/demo.ts");
      return runDemo({ keep: values.keep ?? false });
    }
    case "sessions": {
      const { values } = (await parseArgs())({ args: rest, options: { cwd: { type: "string" }, json: { type: "boolean" } } });
      const { listSessions } = await import("./cli/sessions.ts");
      return listSessions({ ...(values.cwd ? { cwd: values.cwd } : {}), json: values.json ?? false });
    }
    case "show": {
      const { positionals } = (await parseArgs())({ args: rest, allowPositionals: true });
      if (positionals.length !== 1 || !positionals[0]) {
        process.stderr.write("usage: verbatim show ID\n");
        return 2;
      }
      const { showSession } = await import("./cli/sessions.ts");
      return showSession(positionals[0]);
    }
    case "--version":
    case "-v":
      process.stdout.write(`${VERSION}\n`);
      return 0;
    case "--help":
    case "-h":
    case "help":
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`verbatim: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`verbatim: ${(error as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    process.stderr.write(`verbatim: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
