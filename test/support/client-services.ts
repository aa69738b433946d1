/**
 * What an editor does for an agent, done here by the test client itself: `fs/*` on local files
 * and `terminal/*` by running the command as a local process group. Every call is logged, so
 * tests can check which client methods the agent used (and that a reload used none).
 */
import * as acp from "@agentclientprotocol/sdk";
import type {
  ClientApp,
  ClientCapabilities,
  CreateElicitationRequest,
  CreateElicitationResponse,
} from "@agentclientprotocol/sdk";
import { readFileSync, writeFileSync } from "node:fs";

type Running = {
  proc: ReturnType<typeof Bun.spawn>;
  output: string;
  truncated: boolean;
  limit: number;
  exit?: { exitCode: number | null; signal: string | null };
  exited: Promise<void>;
};

export class ClientServices {
  readonly calls: string[] = [];
  readonly #terminals = new Map<string, Running>();
  #next = 1;

  /** The forms the agent put to the user (`elicitation/create`), in order. */
  readonly questions: CreateElicitationRequest[] = [];

  /** `answer`: how the user answers a form (offering `elicitation.form`); `terminalEnv`: variables the client's own environment adds for its terminals. */
  constructor(
    readonly offer: {
      fs?: boolean;
      terminal?: boolean;
      terminalEnv?: Record<string, string>;
      answer?: (request: CreateElicitationRequest) => CreateElicitationResponse | Promise<CreateElicitationResponse>;
    },
  ) {}

  capabilities(): ClientCapabilities {
    return {
      ...(this.offer.fs ? { fs: { readTextFile: true, writeTextFile: true } } : {}),
      ...(this.offer.terminal ? { terminal: true } : {}),
      ...(this.offer.answer ? { elicitation: { form: {} } } : {}),
    };
  }

  /** Ids of terminals still running (none once every command was waited for, killed or released). */
  running(): string[] {
    return [...this.#terminals.entries()].filter(([, t]) => !t.exit).map(([id]) => id);
  }

  /** Kills every terminal still running (a test's cleanup, as an editor does when it closes). */
  killAll(): void {
    for (const t of this.#terminals.values()) if (!t.exit) killGroup(t.proc.pid);
  }

  register = (app: ClientApp): ClientApp => {
    let out = app;
    const answer = this.offer.answer;
    if (answer) {
      out = out.onRequest(acp.methods.client.elicitation.create, ({ params }) => {
        this.calls.push("elicitation/create");
        this.questions.push(params);
        return answer(params);
      });
    }
    if (this.offer.fs) {
      out = out
        .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
          this.calls.push("fs/read_text_file");
          return { content: readFileSync(params.path, "utf8") };
        })
        .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
          this.calls.push("fs/write_text_file");
          writeFileSync(params.path, params.content);
          return {};
        });
    }
    if (this.offer.terminal) {
      out = out
        .onRequest(acp.methods.client.terminal.create, ({ params }) => {
          this.calls.push("terminal/create");
          const terminalId = `term-${this.#next++}`;
          this.#terminals.set(
            terminalId,
            this.#spawn(
              params.command,
              params.args ?? [],
              params.cwd ?? process.cwd(),
              params.outputByteLimit ?? 1_000_000,
            ),
          );
          return { terminalId };
        })
        .onRequest(acp.methods.client.terminal.output, ({ params }) => {
          this.calls.push("terminal/output");
          const t = this.#terminal(params.terminalId);
          return { output: t.output, truncated: t.truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
        })
        .onRequest(acp.methods.client.terminal.waitForExit, async ({ params }) => {
          this.calls.push("terminal/wait_for_exit");
          const t = this.#terminal(params.terminalId);
          await t.exited;
          return t.exit ?? {};
        })
        .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
          this.calls.push("terminal/kill");
          killGroup(this.#terminal(params.terminalId).proc.pid);
          return {};
        })
        .onRequest(acp.methods.client.terminal.release, ({ params }) => {
          this.calls.push("terminal/release");
          const t = this.#terminal(params.terminalId);
          if (!t.exit) killGroup(t.proc.pid);
          this.#terminals.delete(params.terminalId);
          return {};
        });
    }
    return out;
  };

  #terminal(id: string): Running {
    const t = this.#terminals.get(id);
    if (!t) throw acp.RequestError.invalidParams({ terminalId: id }, `unknown terminal ${id}`);
    return t;
  }

  #spawn(command: string, args: string[], cwd: string, limit: number): Running {
    const env = { ...process.env, ...this.offer.terminalEnv };
    const proc = Bun.spawn([command, ...args], {
      cwd,
      env,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
    const running: Running = { proc, output: "", truncated: false, limit, exited: Promise.resolve() };
    const append = (text: string) => {
      running.output += text;
      if (running.output.length > running.limit) {
        running.output = running.output.slice(-running.limit);
        running.truncated = true;
      }
    };
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      const decoder = new TextDecoder();
      for await (const chunk of stream) append(decoder.decode(chunk, { stream: true }));
    };
    const pumping = Promise.all([
      pump(proc.stdout as ReadableStream<Uint8Array>),
      pump(proc.stderr as ReadableStream<Uint8Array>),
    ]);
    running.exited = (async () => {
      await proc.exited;
      await Promise.race([pumping, Bun.sleep(200)]);
      running.exit = { exitCode: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode) };
    })();
    return running;
  }
}

function killGroup(pid: number) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}
