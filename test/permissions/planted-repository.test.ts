/**
 * A repository planted with links and special files, driven through the real agent process as a
 * client sees it. File tools stay inside the session's directories: a dangling link, a chain of
 * links, a FIFO, a device, a `/proc` fd link or a link swapped during a read never lead a tool
 * (or a grant) outside without the user's consent; the files verbatim reads by itself
 * (instruction, command and ignore files) that lead outside or are special are skipped with a
 * notice naming them; a huge file is read in bounded memory.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { connectProcess, newSession, prompt, type Connected } from "../support/acp-session.ts";
import { cards } from "../parity/harness.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const SECRET = "PRIVATE KEY MATERIAL 4f1c";

/** A private file outside the workspace (as `~/.ssh/id_rsa` would be). */
function privateFile(box: Sandbox): string {
  const dir = join(box.root, "private");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "id_rsa");
  writeFileSync(path, `${SECRET}\nsecond line\n`);
  return path;
}

const journalText = (box: Sandbox) => readFileSync(join(box.home, "journal.db")).toString("latin1");
const call = (tool: string, args: unknown) => `${tool} ${JSON.stringify(args)}`;
/** Everything the client was shown for the session (notices come as marked agent messages to a client that does not take ACP notices). */
const shownText = (c: Connected, sessionId: string) => JSON.stringify(c.client.view(sessionId));
const lastCard = (c: Connected, sessionId: string) => cards(c.client.view(sessionId)).pop();
const cardText = (c: Connected, sessionId: string) => JSON.stringify(lastCard(c, sessionId)?.content ?? null);

async function session(box: Sandbox, policy: "reject_once" | "allow_always" = "reject_once", cwd?: string) {
  const c = await connectProcess(box.env, { policy: choose(policy), ...(cwd ? { cwd } : {}) });
  const { sessionId } = await newSession(c.ctx, box.workspace);
  return { c, sessionId };
}

describe("a link that dangles, or leads out through a chain", () => {
  test("Write through a dangling link to outside asks about the outside directory, even in acceptEdits, and refused creates nothing", async () => {
    const box = sandbox("scripted/call");
    const outside = join(box.root, "outside");
    mkdirSync(outside);
    symlinkSync("../outside/planted.txt", join(box.workspace, "link.txt"));
    const { c, sessionId } = await session(box);
    try {
      await c.ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "acceptEdits" });
      await prompt(
        c.ctx,
        sessionId,
        call("Write", { file_path: join(box.workspace, "link.txt"), content: "planted\n" }),
      );
      expect(existsSync(join(outside, "planted.txt"))).toBe(false);
      expect(c.client.permissionRequests.length).toBe(1);
      expect(c.client.permissionRequests[0]!.options[0]!.name).toContain(outside);
      expect(lastCard(c, sessionId)?.status).toBe("failed");
    } finally {
      await c.close();
    }
  });

  test("a chain of links ending outside is followed to its end: the question names where it leads", async () => {
    const box = sandbox("scripted/call");
    const outside = join(box.root, "outside");
    mkdirSync(outside);
    symlinkSync("../outside/planted.txt", join(box.workspace, "second"));
    symlinkSync("second", join(box.workspace, "first.txt"));
    const { c, sessionId } = await session(box);
    try {
      await prompt(
        c.ctx,
        sessionId,
        call("Write", { file_path: join(box.workspace, "first.txt"), content: "planted\n" }),
      );
      expect(existsSync(join(outside, "planted.txt"))).toBe(false);
      expect(c.client.permissionRequests.map((r) => r.options[0]!.name).join("\n")).toContain(outside);
    } finally {
      await c.close();
    }
  });
});

describe("the files verbatim reads by itself", () => {
  test("AGENTS.md linked to a private file is not read: the key is in neither the prompt nor the journal, and a notice names the file", async () => {
    const box = sandbox("scripted/plain");
    symlinkSync(privateFile(box), join(box.workspace, "AGENTS.md"));
    const { c, sessionId } = await session(box);
    try {
      await prompt(c.ctx, sessionId, "hello");
      expect(journalText(box)).not.toContain(SECRET);
      const shown = shownText(c, sessionId);
      expect(shown).not.toContain(SECRET);
      expect(shown).toContain(`${join(box.workspace, "AGENTS.md")} was not read`);
      expect(shown).toContain("outside");
    } finally {
      await c.close();
    }
  });

  test("AGENTS.md linked to /dev/zero is not read: session/new answers at once, and a notice says where it leads", async () => {
    const box = sandbox("scripted/plain");
    symlinkSync("/dev/zero", join(box.workspace, "AGENTS.md"));
    const { c, sessionId } = await session(box);
    try {
      expect(shownText(c, sessionId)).toContain("AGENTS.md was not read: it leads to /dev/zero");
    } finally {
      await c.close();
    }
  });

  test("CLAUDE.md that is a FIFO is not opened: session/new answers at once, and a notice says it is a named pipe", async () => {
    const box = sandbox("scripted/plain");
    Bun.spawnSync(["mkfifo", join(box.workspace, "CLAUDE.md")]);
    const { c, sessionId } = await session(box);
    try {
      expect(shownText(c, sessionId)).toContain("CLAUDE.md was not read: it is a named pipe");
    } finally {
      await c.close();
    }
  });

  test("a command file linked to a private file is not listed, and a notice names it", async () => {
    const box = sandbox("scripted/plain");
    mkdirSync(join(box.workspace, ".claude", "commands"), { recursive: true });
    symlinkSync(privateFile(box), join(box.workspace, ".claude", "commands", "x.md"));
    const { c, sessionId } = await session(box);
    try {
      await prompt(c.ctx, sessionId, "hello");
      const view = c.client.view(sessionId);
      expect((view.commands ?? []).map((cmd) => cmd.name)).not.toContain("x");
      expect(JSON.stringify(view.commands)).not.toContain(SECRET);
      expect(journalText(box)).not.toContain(SECRET);
      expect(shownText(c, sessionId)).toContain("x.md was not read");
    } finally {
      await c.close();
    }
  });

  test("project settings and config files that are FIFOs are not opened: session/new answers, and notices name both", async () => {
    const box = sandbox("scripted/plain");
    mkdirSync(join(box.workspace, ".claude"));
    mkdirSync(join(box.workspace, ".verbatim"));
    Bun.spawnSync(["mkfifo", join(box.workspace, ".claude", "settings.json")]);
    Bun.spawnSync(["mkfifo", join(box.workspace, ".verbatim", "config.json")]);
    const { c, sessionId } = await session(box);
    try {
      await prompt(c.ctx, sessionId, "hello");
      const shown = shownText(c, sessionId);
      expect(shown).toContain(`${join(box.workspace, ".claude", "settings.json")} was not read`);
      expect(shown).toContain(`${join(box.workspace, ".verbatim", "config.json")} was not read`);
    } finally {
      await c.close();
    }
  });

  for (const target of ["/dev/zero", "/dev/stdin"]) {
    test(`.gitignore linked to ${target} is not read by Glob: the search answers, says which file it skipped, and the agent keeps answering`, async () => {
      const box = sandbox("scripted/call");
      symlinkSync(target, join(box.workspace, ".gitignore"));
      const { c, sessionId } = await session(box);
      try {
        await prompt(c.ctx, sessionId, call("Glob", { pattern: "**/*.md" }));
        expect(lastCard(c, sessionId)?.status).toBe("completed");
        expect(cardText(c, sessionId)).toContain(".gitignore was not read");
        const list = await c.ctx.request(acp.methods.agent.session.list, {});
        expect(list.sessions.map((s) => s.sessionId)).toContain(sessionId);
      } finally {
        await c.close();
      }
    });
  }
});

describe("special files in the workspace", () => {
  test("Read of a FIFO fails at once saying it is a named pipe, and the turn ends", async () => {
    const box = sandbox("scripted/read-path");
    const fifo = join(box.workspace, "pipe");
    Bun.spawnSync(["mkfifo", fifo]);
    const { c, sessionId } = await session(box);
    try {
      const answer = await prompt(c.ctx, sessionId, fifo);
      expect(answer.stopReason).toBe("end_turn");
      expect(lastCard(c, sessionId)?.status).toBe("failed");
      expect(cardText(c, sessionId)).toContain("named pipe");
    } finally {
      await c.close();
    }
  });

  test("Read of a link to /proc/self/fd/0 is refused as a pipe or socket of a running process, without a question and without opening the agent's stdin", async () => {
    const box = sandbox("scripted/read-path");
    symlinkSync("/proc/self/fd/0", join(box.workspace, "stdin-link"));
    const { c, sessionId } = await session(box);
    try {
      await prompt(c.ctx, sessionId, join(box.workspace, "stdin-link"));
      expect(c.client.permissionRequests).toEqual([]);
      expect(lastCard(c, sessionId)?.status).toBe("failed");
      expect(cardText(c, sessionId)).toContain("of a running process, not a file");
      const list = await c.ctx.request(acp.methods.agent.session.list, {});
      expect(list.sessions.map((s) => s.sessionId)).toContain(sessionId);
    } finally {
      await c.close();
    }
  });
});

describe("grants", () => {
  test("a grant always names an absolute directory: allowing a /proc fd link for the session does not open the agent's own working directory", async () => {
    const box = sandbox("scripted/read-path");
    const agentCwd = join(box.root, "agent-cwd");
    mkdirSync(agentCwd);
    writeFileSync(join(agentCwd, "secret.txt"), `${SECRET}\n`);
    symlinkSync("/proc/self/fd/0", join(box.workspace, "stdin-link"));
    const { c, sessionId } = await session(box, "allow_always", agentCwd);
    try {
      await prompt(c.ctx, sessionId, join(box.workspace, "stdin-link"));
      const asked = c.client.permissionRequests.length;
      await prompt(c.ctx, sessionId, join(agentCwd, "secret.txt"));
      // The read of the agent's own directory is asked about: no earlier grant covered it.
      expect(c.client.permissionRequests.length).toBe(asked + 1);
      for (const request of c.client.permissionRequests) {
        for (const option of request.options) expect(option.name).not.toMatch(/(^|\s)\.($|\s|,)/);
      }
    } finally {
      await c.close();
    }
  });
});

describe("a link swapped during reads", () => {
  test("300 Reads of a link another process flips between an inside and an outside file never return the outside file without consent", async () => {
    const box = sandbox("scripted/read-path");
    const secret = privateFile(box);
    const inside = join(box.workspace, "inside.txt");
    writeFileSync(inside, "inside content\n");
    const link = join(box.workspace, "flip.txt");
    symlinkSync(inside, link);
    const flipper = Bun.spawn(
      [
        process.execPath,
        "-e",
        `
      const { renameSync, symlinkSync, rmSync } = require("node:fs");
      const [link, a, b] = process.argv.slice(1);
      const tmp = link + ".tmp";
      for (let n = 0; ; n++) {
        rmSync(tmp, { force: true });
        symlinkSync(n % 2 ? b : a, tmp);
        renameSync(tmp, link);
      }
    `,
        link,
        inside,
        secret,
      ],
      { stdout: "ignore", stderr: "ignore" },
    );
    const { c, sessionId } = await session(box, "reject_once");
    try {
      let leaked = 0;
      let insideReads = 0;
      for (let n = 0; n < 300; n++) {
        await prompt(c.ctx, sessionId, link);
        const text = cardText(c, sessionId);
        if (text.includes(SECRET)) leaked++;
        if (text.includes("inside content")) insideReads++;
      }
      expect(leaked).toBe(0);
      expect(insideReads).toBeGreaterThan(0);
    } finally {
      flipper.kill();
      await flipper.exited;
      await c.close();
    }
  }, 120_000);
});

/** The agent process's peak resident memory, in bytes (Linux). */
const peakRss = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;

describe("large and binary files", () => {
  const GiB = 1024 ** 3;

  test("Read of a 2 GiB text file shows its first 2000 lines in bounded memory and says it was not read whole", async () => {
    const box = sandbox("scripted/read-path");
    const big = join(box.workspace, "big.log");
    const fd = openSync(big, "w");
    writeSync(fd, `${Array.from({ length: 5000 }, (_, n) => `log line ${n + 1}`).join("\n")}\n`);
    ftruncateSync(fd, 2 * GiB); // sparse: the rest reads as NUL bytes, past the part a binary check looks at
    closeSync(fd);
    const { c, sessionId } = await session(box);
    try {
      await prompt(c.ctx, sessionId, big);
      const card = lastCard(c, sessionId);
      expect(card?.status).toBe("completed");
      const text = cardText(c, sessionId);
      expect(text).toContain("log line 2000");
      expect(text).not.toContain("log line 2001");
      expect(text).toContain("too large to read whole");
      expect(peakRss(c.agent!.pid)).toBeLessThan(GiB / 2);
    } finally {
      await c.close();
    }
  }, 60_000);

  test("Read of a binary file answers from its first bytes", async () => {
    const box = sandbox("scripted/read-path");
    const blob = join(box.workspace, "disk.img");
    const fd = openSync(blob, "w");
    ftruncateSync(fd, 2 * GiB);
    closeSync(fd);
    const { c, sessionId } = await session(box);
    try {
      await prompt(c.ctx, sessionId, blob);
      expect(cardText(c, sessionId)).toContain("binary file");
      expect(peakRss(c.agent!.pid)).toBeLessThan(GiB / 2);
    } finally {
      await c.close();
    }
  }, 60_000);
});
