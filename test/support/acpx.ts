/**
 * Driving verbatim with acpx, the headless ACP client from npm (a client not written here).
 *
 * acpx runs on the project's own Bun (`bun node_modules/acpx/dist/cli.js`): its `engines` ask for
 * Node 22.13+, and the Bun that `npm ci` installs runs it as it is, so the tests need nothing but
 * the npm registry. Each test gets its own HOME (acpx keeps its session records in
 * `~/.acpx/`), and acpx launches verbatim itself through `--agent`, over stdio.
 *
 * With `--format json` acpx prints every JSON-RPC frame that crossed the wire, both directions,
 * in order: that is what the tests assert on.
 */
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { afterAll } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentCommand } from "../../src/client/spawn-agent.ts";
import type { Sandbox } from "./workspace.ts";

/** One JSON-RPC message as acpx printed it. */
export type Frame = {
  jsonrpc: "2.0";
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

export type AcpxRun = { code: number; frames: Frame[]; stdout: string; stderr: string };

const acpxCli = fileURLToPath(import.meta.resolve("acpx"));

/**
 * acpx keeps its queue sockets in `/tmp/acpx-<home hash>/` (its sessions guide), outside the
 * sandbox; remove them after the test file like the sandbox itself.
 */
const socketDirs: string[] = [];
afterAll(() => {
  for (const dir of socketDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** acpx pointed at one workspace, with its own HOME, launching this verbatim with the sandbox's env. */
export class Acpx {
  readonly home: string;

  constructor(
    readonly box: Sandbox,
    readonly cwd: string = box.workspace,
  ) {
    this.home = join(box.root, "acpx-home");
    mkdirSync(this.home, { recursive: true });
    socketDirs.push(join("/tmp", `acpx-${createHash("sha256").update(this.home).digest("hex").slice(0, 10)}`));
  }

  /** Runs `acpx --agent <verbatim> --cwd <cwd> --format json ...args` and collects what it printed. */
  async run(args: string[]): Promise<AcpxRun> {
    const command = [
      process.execPath,
      acpxCli,
      "--agent",
      agentCommand().join(" "),
      "--cwd",
      this.cwd,
      "--format",
      "json",
      ...args,
    ];
    const child = Bun.spawn(command, {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ...this.box.env, HOME: this.home },
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { code, stdout, stderr, frames: parseFrames(stdout) };
  }

  /** A session-control command (`sessions new`, `status`, ...): its one JSON document. */
  async document<T>(args: string[]): Promise<T> {
    const r = await this.run(args);
    if (r.code !== 0) throw new Error(`acpx ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  }

  /**
   * Sends one prompt in the workspace's session. The queue owner acpx leaves behind keeps the
   * agent for one idle second, then exits, so the next prompt starts a fresh verbatim process.
   */
  prompt(
    text: string,
    permissions: "--approve-all" | "--approve-reads" | "--deny-all" = "--approve-all",
  ): Promise<AcpxRun> {
    return this.run([permissions, "--ttl", "1", text]);
  }

  /** Waits until acpx reports no live queue owner (so no verbatim process holds the session). */
  async idle(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { status } = await this.document<{ status: string }>(["status"]);
      if (status !== "alive") return;
      if (Date.now() > deadline) throw new Error("acpx's queue owner did not exit");
      await Bun.sleep(250);
    }
  }
}

function parseFrames(stdout: string): Frame[] {
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      const value = JSON.parse(line) as Partial<Frame>;
      return value.jsonrpc === "2.0" ? [value as Frame] : [];
    });
}

/** The `session/update` notifications acpx received, in order. */
export const updatesIn = (frames: Frame[]): SessionNotification[] =>
  frames.filter((f) => f.method === "session/update" && f.id === undefined).map((f) => f.params as SessionNotification);

/** The requests with this method, in order. */
export const requestsIn = (frames: Frame[], method: string): Frame[] =>
  frames.filter((f) => f.method === method && f.id !== undefined);

/**
 * The answer to a request. Both sides number their own requests, so ids repeat across
 * directions (acpx's `session/prompt` and verbatim's `fs/read_text_file` can both be #2, open at
 * once). Requests nest: the agent asks the client things while the client's prompt is open, and
 * each is answered before the prompt ends. So an answer belongs to the latest open request with
 * its id.
 */
export function answerTo(frames: Frame[], request: Frame): Frame {
  const open: Frame[] = [];
  for (const frame of frames) {
    if (frame.method !== undefined) {
      if (frame.id !== undefined) open.push(frame);
      continue;
    }
    const index = open.findLastIndex((r) => r.id === frame.id);
    if (index < 0) continue;
    const [answered] = open.splice(index, 1);
    if (answered === request) return frame;
  }
  throw new Error(`no answer to ${request.method} #${String(request.id)}`);
}
