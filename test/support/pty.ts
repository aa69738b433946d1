/**
 * A command run in a pseudo-terminal, as a user at a terminal (or an editor's terminal sign-in)
 * runs it: util-linux `script` gives the command a terminal and relays what is typed into it.
 * A test waits for a prompt to appear, then types the answer and Enter, like a person.
 * `terminal` runs verbatim itself and types raw keys (Ctrl-C, Ctrl-D), with colour on (TERM=xterm).
 */
import { agentCommand } from "../../src/client/spawn-agent.ts";

export type Pty = {
  /** Waits until the output written after the last `expect` contains `text`. */
  expect(text: string, timeoutMs?: number): Promise<void>;
  /** Types `text` then Enter (a carriage return, as a terminal sends it). */
  type(text: string): void;
  /** Everything the terminal showed so far. */
  output(): string;
  exited: Promise<number>;
};

/**
 * `script` runs the command with $SHELL -c, and a shell that stays (dash does, where SHELL is
 * unset or /bin/sh, as in CI) is in the terminal's foreground group: Ctrl-C would kill it, not
 * reach verbatim. So the shell is a known one, and it execs the command.
 */
const POSIX_SHELL = { SHELL: "/bin/sh" };

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

export function inPty(command: string[], env: Record<string, string>, cwd?: string): Pty {
  const child = Bun.spawn(
    ["script", "--quiet", "--return", "--command", `exec ${command.map(quote).join(" ")}`, "/dev/null"],
    {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ...env, ...POSIX_SHELL, TERM: "dumb" },
      ...(cwd ? { cwd } : {}),
    },
  );
  let shown = "";
  let seen = 0;
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) shown += decoder.decode(chunk, { stream: true });
  })();
  return {
    async expect(text, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const at = shown.indexOf(text, seen);
        if (at >= 0) {
          seen = at + text.length;
          return;
        }
        if (Date.now() > deadline)
          throw new Error(`the terminal never showed ${JSON.stringify(text)}; it showed:\n${shown}`);
        await Bun.sleep(10);
      }
    },
    type(text) {
      child.stdin.write(`${text}\r`);
      void child.stdin.flush();
    },
    output: () => shown,
    exited: child.exited.then(async (code) => {
      void child.stdin.end();
      return code;
    }),
  };
}

export type Terminal = {
  /** Types `text` (a "\r" is Enter, "\x03" Ctrl-C, "\x04" Ctrl-D). */
  type(text: string): void;
  /** Waits until the screen shows `what` after `from` (default: anywhere); returns where it ends. */
  waitFor(what: string | RegExp, from?: number, ms?: number): Promise<number>;
  /** Everything the terminal was shown so far, line ends as "\n". */
  screen(): string;
  /** The command's exit code, once it ended. */
  exited: Promise<number>;
  kill(): void;
};

/** `redirect` is shell text after the command (e.g. `2>/tmp/err`: stderr is then not the terminal). */
export function terminal(args: string[], env: Record<string, string>, redirect = ""): Terminal {
  const command = `exec ${[...agentCommand(), ...args].map(quote).join(" ")} ${redirect}`;
  const child = Bun.spawn(["script", "-qfec", command, "/dev/null"], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, TERM: "xterm", ...env, ...POSIX_SHELL },
  });
  let shown = "";
  let ended = false;
  const waiters = new Set<() => void>();
  const decoder = new TextDecoder();
  const read = (async () => {
    for await (const chunk of child.stdout) {
      shown += decoder.decode(chunk, { stream: true });
      for (const wake of waiters) wake();
    }
    ended = true;
    for (const wake of waiters) wake();
  })();
  const screen = () => shown.replaceAll("\r\n", "\n");
  const exited = read.then(() => child.exited);
  return {
    type(text) {
      child.stdin.write(text);
      child.stdin.flush();
    },
    waitFor(what, from = 0, ms = 20_000) {
      const find = (): number | undefined => {
        const text = screen().slice(from);
        if (typeof what === "string") {
          const at = text.indexOf(what);
          return at < 0 ? undefined : from + at + what.length;
        }
        const match = what.exec(text);
        return match ? from + match.index + match[0].length : undefined;
      };
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the terminal never showed ${String(what)}; it shows:\n${screen()}`));
        }, ms);
        const check = () => {
          const at = find();
          if (at !== undefined || ended) {
            clearTimeout(timer);
            waiters.delete(check);
            if (at !== undefined) resolve(at);
            else reject(new Error(`the command ended before showing ${String(what)}; it showed:\n${screen()}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    screen,
    exited,
    kill: () => child.kill(),
  };
}
