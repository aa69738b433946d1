/**
 * Everything past the start path (src/cli.ts): the full ACP agent (the protocol, the SDK, the
 * engine), which the start path hands over to once `initialize` is answered (or, when it left the
 * first line to the agent, to answer it), and the subcommands. The build makes this module its own
 * bundle (dist/agent.js). The subcommands share it with the agent rather than having a bundle of
 * their own: both hold the engine, and the package would carry it twice.
 */
import type { EarlyStart } from "../acp/stdio.ts";

export { commands } from "./commands.ts";

export async function serveAgent(options: { trust: boolean; early: EarlyStart }): Promise<void> {
  // A journal on a server: its login starts now, while the protocol and the engine load.
  if (process.env.VERBATIM_JOURNAL)
    (await import("../journal/postgres-pool.ts")).openEarly(process.env.VERBATIM_JOURNAL);
  const { serveStdio } = await import("../acp/stdio.ts");
  await serveStdio({ trust: options.trust, early: options.early });
}
