/**
 * `verbatim demo`: the main job, offline. Runs a scripted session through a real ACP client
 * (the SDK's) against a verbatim process, prints what the client was shown, reopens the session
 * in a fresh process with `session/load`, and prints whether the two views are identical.
 */
import * as acp from "@agentclientprotocol/sdk";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnAgent } from "../client/spawn-agent.ts";
import { journalFile } from "../journal/paths.ts";
import { ViewClient } from "../client/view-client.ts";
import { diffValues } from "../view/view-diff.ts";
import { TranscriptRecorder } from "../view/transcript.ts";
import type { ViewModel } from "../view/view-model.ts";

const out = (line = "") => process.stdout.write(`${line}\n`);

const README = `# Sample project

A tiny project for the verbatim demo.

## Run

    npm start

## Layout

- src/: the code
- test/: the tests
`;

export async function runDemo(options: { keep?: boolean } = {}): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), "verbatim-demo-"));
  const workspace = join(root, "workspace");
  const home = join(root, "data");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "README.md"), README);
  // The demo's own config home and working directory: the user's config files play no part.
  const env = { VERBATIM_HOME: home, VERBATIM_MODEL: "scripted/demo", XDG_CONFIG_HOME: join(root, "config") };
  try {
    out("verbatim demo: a scripted session, shown live, then reopened in a fresh process");
    out(`workspace ${workspace}`);
    out();

    const live = new ViewClient();
    const agent = spawnAgent({ env, cwd: workspace });
    const sessionId = await live.app().connectWith(agent.stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
      for (const [i, text] of [
        "Give me an overview of this project.",
        "Are there any notes I should read?",
      ].entries()) {
        const { stopReason } = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text }],
        });
        live.promptEnded(sessionId, stopReason);
        out(`turn ${i + 1} ended: ${stopReason}`);
        if (i === 0) {
          await ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: "plan" });
          out("mode changed to plan");
        }
      }
      return sessionId;
    });
    agent.kill();
    await agent.exited;
    const liveView = live.view(sessionId);
    out();
    out("── what the client was shown live ──");
    const transcript = new TranscriptRecorder();
    for (const n of live.notifications) transcript.apply(n.update);
    process.stdout.write(transcript.render());

    const reopened = new ViewClient();
    const fresh = spawnAgent({ env, cwd: workspace });
    const started = performance.now();
    await reopened.app().connectWith(fresh.stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      await ctx.request(acp.methods.agent.session.load, { sessionId, cwd: workspace, mcpServers: [] });
    });
    const loadMs = performance.now() - started;
    fresh.kill();
    await fresh.exited;
    const loadedView = reopened.view(sessionId);

    const differences = diffValues(comparable(liveView), comparable(loadedView));
    if (options.keep) {
      out();
      out(`kept: the workspace ${workspace}, and the journal ${journalFile(home)} holding session ${sessionId}`);
      out(`  look again: VERBATIM_HOME=${home} verbatim show ${sessionId}`);
      out(
        `  continue:   VERBATIM_HOME=${home} VERBATIM_MODEL=scripted/demo verbatim run --cwd ${workspace} --session ${sessionId} "..."`,
      );
    }
    out();
    out(`── reopened in a fresh process (session/load, ${loadMs.toFixed(0)} ms including start-up) ──`);
    out(
      `${Object.keys(loadedView.messages).length} messages, ${Object.keys(loadedView.toolCalls).length} tool cards, ` +
        `${live.notifications.length} updates live, ${reopened.notifications.length} on reload`,
    );
    if (differences.length === 0) {
      out("parity: IDENTICAL — the reopened session shows exactly what was shown live, field by field");
      return 0;
    }
    out("parity: DIFFERENT");
    for (const d of differences) out(`  ${d}`);
    return 1;
  } finally {
    if (!options.keep) rmSync(root, { recursive: true, force: true });
  }
}

/** Live-only fields (ACP notices) are not part of parity. */
export const comparable = (view: ViewModel) => ({ ...view, notices: [] });
