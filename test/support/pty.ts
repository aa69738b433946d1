/**
 * A command run in a pseudo-terminal, as a user at a terminal (or an editor's terminal sign-in)
 * runs it: util-linux `script` gives the command a terminal and relays what is typed into it.
 * A test waits for a prompt to appear, then types the answer and Enter, like a person.
 */
export type Pty = {
  /** Waits until the output written after the last `expect` contains `text`. */
  expect(text: string, timeoutMs?: number): Promise<void>;
  /** Types `text` then Enter (a carriage return, as a terminal sends it). */
  type(text: string): void;
  /** Everything the terminal showed so far. */
  output(): string;
  exited: Promise<number>;
};

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

export function inPty(command: string[], env: Record<string, string>, cwd?: string): Pty {
  const child = Bun.spawn(["script", "--quiet", "--return", "--command", command.map(quote).join(" "), "/dev/null"], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...env, TERM: "dumb" },
    ...(cwd ? { cwd } : {}),
  });
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
