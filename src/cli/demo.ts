/**
 * `verbatim demo`: what verbatim is for, offline, in seconds. A scripted model (`tour`) works in a
 * temporary workspace through a real ACP client (the SDK's) against a verbatim process: it thinks,
 * keeps a plan, edits a file (its diff, and the permission answer) and runs a command (asked too);
 * then a slow answer is cancelled part of the way through. The transcript streams as it happens,
 * in colour at a terminal. The session is then reopened in a fresh process with `session/load`,
 * and the two client views are compared field by field.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnAgent } from "../client/spawn-agent.ts";
import { ViewClient } from "../client/view-client.ts";
import { TOUR_HEADING } from "../core/providers/scripted/tour-scenario.ts";
import { journalFile } from "../journal/paths.ts";
import { stopReasonWords } from "../view/stop-reason-words.ts";
import { TranscriptStream } from "../view/transcript-stream.ts";
import { diffValues } from "../view/view-diff.ts";
import type { ViewModel } from "../view/view-model.ts";
import { colourOn, SGR } from "./terminal/ansi.ts";
import { Painter } from "./terminal/painter.ts";

const out = (text = "") => process.stdout.write(`${text}\n`);

const README = `${TOUR_HEADING}

A tiny project for the verbatim demo.

## Run

    npm start
`;

const PROMPTS = ["Tidy up the README and tell me how big it is.", "Now explain the whole project in detail."];

/** Words of the slow answer streamed before the demo cancels it (as Ctrl-C would). */
const CANCEL_AFTER_WORDS = 12;

export async function runDemo(options: { keep?: boolean } = {}): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), "verbatim-demo-"));
  const workspace = join(root, "workspace");
  const home = join(root, "data");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "README.md"), README);
  // The demo's own config home and working directory: the user's config files play no part.
  const env = { VERBATIM_HOME: home, VERBATIM_MODEL: "scripted/tour", XDG_CONFIG_HOME: join(root, "config") };
  const colour = colourOn(process.stdout);
  const heading = (text: string) => out(colour ? `${SGR.bold}${text}${SGR.reset}` : text);
  try {
    heading("verbatim demo: a scripted model (offline, no key) in a temporary workspace, shown live,");
    heading("then the session reopened in a fresh process and compared with what was shown");
    // The workspace is removed at the end: its paths are shown from it, unless it is kept.
    const where = options.keep ? undefined : workspace;
    if (where) out("(paths are shown from the workspace, ./, a temporary folder the demo removes)");
    out();

    const live = await recordLive(env, workspace, new Painter(colour), where);
    const reopened = await reopen(env, workspace, live.sessionId);
    const differences = diffValues(comparable(live.view), comparable(reopened.view));
    if (options.keep) {
      out();
      out(`kept: the workspace ${workspace}, and the journal ${journalFile(home)} holding session ${live.sessionId}`);
      out(`  look again: VERBATIM_HOME=${home} verbatim show ${live.sessionId}`);
      out(
        `  continue:   VERBATIM_HOME=${home} VERBATIM_MODEL=scripted/tour verbatim run --cwd ${workspace} --session ${live.sessionId} "..."`,
      );
    }
    out();
    heading(`── reopened in a fresh process (session/load, ${reopened.ms.toFixed(0)} ms including start-up) ──`);
    if (differences.length > 0) {
      out("parity: DIFFERENT");
      for (const d of differences) out(`  ${d}`);
      return 1;
    }
    out(`parity: IDENTICAL — ${compared(reopened.view)}, field by field, live and reopened`);
    out(
      `(from ${live.updates} updates live and ${reopened.updates} on reload: a reload sends each message whole, not word by word)`,
    );
    return 0;
  } finally {
    if (!options.keep) rmSync(root, { recursive: true, force: true });
  }
}

type Env = Record<string, string>;

/**
 * Runs the two prompts live, drawing the transcript as it streams (a path in `where` shown from
 * ./); the slow answer of the second is cancelled once it has streamed a few words.
 */
async function recordLive(
  env: Env,
  workspace: string,
  painter: Painter,
  where: string | undefined,
): Promise<{ sessionId: string; view: ViewModel; updates: number }> {
  const write = (text: string) => process.stdout.write(where ? text.replaceAll(`${where}/`, "./") : text);
  const stream = new TranscriptStream((piece) => write(painter.paint(piece)));
  const live = new ViewClient();
  let cancelWhen: ((n: SessionNotification) => boolean) | undefined;
  const agent = spawnAgent({ env, cwd: workspace });
  try {
    const sessionId = await live.app().connectWith(agent.stream, async (ctx) => {
      live.onUpdate = (n) => {
        stream.apply(n.update);
        if (cancelWhen?.(n)) {
          cancelWhen = undefined;
          void ctx.notify(acp.methods.agent.session.cancel, { sessionId: n.sessionId });
        }
      };
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
      for (const [i, text] of PROMPTS.entries()) {
        let words = 0;
        // The second answer is long and slow: cancel it part of the way through.
        if (i === 1)
          cancelWhen = (n) => n.update.sessionUpdate === "agent_message_chunk" && ++words >= CANCEL_AFTER_WORDS;
        const { stopReason } = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text }],
        });
        live.promptEnded(sessionId, stopReason);
        stream.flush();
        // The transcript has already said how a turn that did not end well ended; the demo says why.
        const how =
          stopReason === "end_turn"
            ? `turn ${i + 1} ended`
            : stopReason === "cancelled"
              ? "the demo cancelled it part of the way through, as Ctrl-C does"
              : `turn ${i + 1} ${stopReasonWords(stopReason)}`;
        write(painter.paint({ style: "mark", text: `(${how})\n\n` }));
      }
      return sessionId;
    });
    stream.close();
    return { sessionId, view: live.view(sessionId), updates: live.notifications.length };
  } finally {
    agent.kill();
    await agent.exited;
  }
}

/** The session loaded by a fresh verbatim process, as a client that reopens it sees it. */
async function reopen(
  env: Env,
  workspace: string,
  sessionId: string,
): Promise<{ view: ViewModel; updates: number; ms: number }> {
  const reopened = new ViewClient();
  const fresh = spawnAgent({ env, cwd: workspace });
  const started = performance.now();
  try {
    await reopened.app().connectWith(fresh.stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      await ctx.request(acp.methods.agent.session.load, { sessionId, cwd: workspace, mcpServers: [] });
    });
    return { view: reopened.view(sessionId), updates: reopened.notifications.length, ms: performance.now() - started };
  } finally {
    fresh.kill();
    await fresh.exited;
  }
}

/** What the comparison covered, counted: the one line that says what "identical" means. */
function compared(view: ViewModel): string {
  const messages = Object.keys(view.messages).length;
  const cards = Object.keys(view.toolCalls).length;
  return `the client's ${messages} messages with their ids, ${cards} tool cards (diffs, command output, permission answers), plan, mode and usage`;
}

/** Live-only fields (ACP notices) are not part of parity. */
export const comparable = (view: ViewModel) => ({ ...view, notices: [] });
