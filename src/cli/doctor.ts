/**
 * `verbatim doctor`: checks what verbatim depends on and says what to fix. Bun; the journal (its
 * place, its permissions, its integrity); the config files; each configured provider (set up,
 * and answering); the trusted workspaces; the OS sandbox (doctor-sandbox.ts); the instruction files, commands, skills and agents
 * (files skipped, names that clash). Changes nothing. Exits 1 when a check fails (a
 * warning alone exits 0).
 */
import { Database } from "bun:sqlite";
import { lstatSync, statSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { folderProblem } from "../core/confinement/private-write.ts";
import { sealKeyFile, sealKeyProblem } from "../core/replay-cache/replay-seal.ts";
import type { Settings } from "../core/config/settings-schema.ts";
import { readSettingsFile } from "../core/config/settings.ts";
import { trustedFolders } from "../core/hooks/trust.ts";
import { journalUrl, openJournal } from "../core/config/open-journal.ts";
import { redactUrl } from "../journal/postgres-url.ts";
import { SqliteJournal } from "../journal/sqlite-store.ts";
import type { JournalStore } from "../journal/store.ts";
import { visible } from "../view/visible-text.ts";
import { byteSize } from "./byte-size.ts";
import { describeError } from "./cli-error.ts";
import { checkJournalPlace, journalPlace } from "./journal-access.ts";
import { providerStatus } from "./provider-status.ts";
import { reachProvider } from "./provider-reach.ts";
import { permissionChecks } from "./doctor-permissions.ts";
import { sandboxCheck } from "./doctor-sandbox.ts";
import { setupChecks } from "./setup-checks.ts";
import { orphanJobs } from "./orphan-jobs-check.ts";

export type Check = { check: string; status: "ok" | "warn" | "fail"; message: string };

type Env = Record<string, string | undefined>;

const ok = (check: string, message: string): Check => ({ check, status: "ok", message });
const warn = (check: string, message: string): Check => ({ check, status: "warn", message });
const fail = (check: string, message: string): Check => ({ check, status: "fail", message });

export async function doctor(args: { cwd?: string; json: boolean }): Promise<number> {
  const cwd = args.cwd ? (isAbsolute(args.cwd) ? args.cwd : resolve(args.cwd)) : process.cwd();
  const checks = await runChecks(process.env, cwd);
  for (const c of checks) {
    process.stdout.write(
      args.json
        ? `${JSON.stringify(c)}\n`
        : // A message may quote a provider's answer, a journal or a config file: escapes shown, never run.
          `${c.status === "ok" ? "ok  " : c.status === "warn" ? "warn" : "FAIL"}  ${c.check}: ${visible(c.message)}\n`,
    );
  }
  const failed = checks.filter((c) => c.status === "fail").length;
  if (!args.json)
    process.stdout.write(
      failed
        ? `\n${failed} check${failed === 1 ? "" : "s"} failed: fix what FAIL says, then run verbatim doctor again.\n`
        : "\nall checks passed\n",
    );
  return failed ? 1 : 0;
}

async function runChecks(env: Env, cwd: string): Promise<Check[]> {
  return [
    bunCheck(),
    ...(await journalChecks(env)),
    ...configChecks(env, cwd),
    ...(await providerChecks(env, cwd)),
    ...trustChecks(env, cwd),
    ...permissionChecks(env, cwd),
    await sandboxCheck(env, cwd),
    ...(await setupChecks(env, cwd)),
  ];
}

function bunCheck(): Check {
  return ok("bun", `Bun ${Bun.version} (${process.execPath})`);
}

async function journalChecks(env: Env): Promise<Check[]> {
  let url: string | undefined;
  try {
    url = journalUrl(env);
  } catch (error) {
    return [fail("journal", describeError(error).body.message)];
  }
  if (url !== undefined) return serverJournal(env, redactUrl(url));
  const { home, file } = journalPlace(env);
  try {
    checkJournalPlace(env, { write: false });
  } catch (error) {
    return [fail("journal", describeError(error).body.message)];
  }
  const homeStat = statSync(home, { throwIfNoEntry: false });
  if (!homeStat) return [ok("journal", `${file} (not created yet: the first session creates it, private to you)`)];
  const checks: Check[] = [];
  const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(3, "0");
  if ((homeStat.mode & 0o077) !== 0)
    checks.push(fail("journal permissions", `${home} is mode ${mode(home)}, readable by others: chmod 700 ${home}`));
  const fileStat = statSync(file, { throwIfNoEntry: false });
  if (!fileStat) return [...checks, ok("journal", `${file} (not created yet)`)];
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    const s = statSync(path, { throwIfNoEntry: false });
    if (s && (s.mode & 0o077) !== 0)
      checks.push(fail("journal permissions", `${path} is mode ${mode(path)}, readable by others: chmod 600 ${path}`));
  }
  checks.push(...(await journalIntegrity(file)));
  return checks;
}

/** A journal on PostgreSQL: that it answers, and how many sessions it holds. */
async function serverJournal(env: Env, where: string): Promise<Check[]> {
  const store = openJournal(env);
  try {
    const sessions = (await store.list({ limit: 100_000 })).length;
    return [
      ok("journal", `PostgreSQL at ${where}: ${sessionsAndSize(sessions, await store.journalBytes())}`),
      await jobsCheck(store),
    ];
  } catch (error) {
    return [fail("journal", describeError(error, { journal: where }).body.message)];
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** SQLite's own integrity check, then the journal's layout and sessions as the store reads them. */
async function journalIntegrity(file: string): Promise<Check[]> {
  try {
    const db = new Database(file, { readonly: true, strict: true });
    try {
      const rows = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all();
      const problems = rows.map((r) => r.integrity_check).filter((r) => r !== "ok");
      if (problems.length)
        return [
          fail(
            "journal",
            `${file} is damaged (${problems.slice(0, 3).join("; ")}). Move it away to start a new journal; keep it for recovery.`,
          ),
        ];
    } finally {
      db.close();
    }
    const store = new SqliteJournal(file);
    try {
      const sessions = (await store.list({ limit: 100_000 })).length;
      return [
        ok("journal", `${file}: intact, ${sessionsAndSize(sessions, await store.journalBytes())}`),
        await jobsCheck(store),
      ];
    } finally {
      await store.close();
    }
  } catch (error) {
    return [fail("journal", describeError(error, { journal: file }).body.message)];
  }
}

/** Background jobs still running from sessions no live process holds (a load of the session kills them). */
async function jobsCheck(store: JournalStore): Promise<Check> {
  const jobs = await orphanJobs(store);
  if (jobs.length === 0) return ok("background jobs", "none left running by a session no process holds");
  const list = jobs.map((j) => `${j.jobId} of ${j.sessionId} (process group ${j.pid}: ${j.command})`).join("; ");
  return warn(
    "background jobs",
    `still running from sessions no process holds: ${list}. Loading the session stops them (or kill -- -<group>).`,
  );
}

/** How many sessions, and the room the journal takes (`verbatim prune` gives old sessions' back). */
const sessionsAndSize = (sessions: number, bytes: number) =>
  `${sessions} session${sessions === 1 ? "" : "s"}, ${byteSize(bytes)} (verbatim prune --older-than 30d deletes old ones)`;

function configChecks(env: Env, cwd: string): Check[] {
  const status = providerStatus(env, cwd);
  const checks: Check[] = [...userFolderChecks(status.files.user), ...sealKeyChecks(env)];
  for (const [which, path] of [
    ["user config", status.files.user],
    ["project config", status.files.project],
  ] as const) {
    if (!statSync(path, { throwIfNoEntry: false })) {
      checks.push(ok(which, `${path} (none)`));
      continue;
    }
    const warnings: string[] = [];
    const read = readSettingsFile(path, [dirname(dirname(path))], warnings);
    checks.push(read.ok ? ok(which, path) : fail(which, read.error));
    if (read.ok && holdsKey(read.settings) && (statSync(path).mode & 0o077) !== 0)
      checks.push(
        warn(
          which,
          `${path} holds a secret (a provider key, header or journal password) and is mode ${(statSync(path).mode & 0o777).toString(8)}, readable by others: chmod 600 ${path}`,
        ),
      );
    for (const warning of warnings) checks.push(warn(which, warning));
  }
  if (status.configError && checks.every((c) => c.status === "ok")) checks.push(fail("config", status.configError));
  return checks;
}

/**
 * The user config folder must be the user's alone to write: `setup` and `trust` save keys there
 * and refuse a folder others could put a link in or swap the file of.
 */
function userFolderChecks(file: string): Check[] {
  const folder = dirname(file);
  if (!statSync(folder, { throwIfNoEntry: false })) return [];
  const problem = folderProblem(folder);
  return problem ? [warn("user config folder", `${problem}; until then setup and trust refuse to save there`)] : [];
}

/** The replay cache's seal key (core/replay-cache/replay-seal.ts) seals nothing when others can read it or it is not the user's. */
function sealKeyChecks(env: Env): Check[] {
  const path = sealKeyFile(env);
  if (!lstatSync(path, { throwIfNoEntry: false })) return [];
  const wrong = sealKeyProblem(path);
  if (!wrong) return [];
  return [
    warn("replay cache seal", `${path} ${wrong.problem}, so reopened sessions check every cached line: ${wrong.fix}`),
  ];
}

/** Whether a config file holds a secret: a provider's key or header values, or a journal URL's password. */
const holdsKey = (settings: Settings | undefined): boolean =>
  Object.values(settings?.providers ?? {}).some(
    (p) => p.apiKey !== undefined || Object.keys(p.headers ?? {}).length > 0,
  ) || hasPassword(settings?.journal?.url);

const hasPassword = (url: string | undefined): boolean => {
  if (!url || !URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.password !== "" || parsed.searchParams.has("password");
};

async function providerChecks(env: Env, cwd: string): Promise<Check[]> {
  const { setup, configError } = providerStatus(env, cwd);
  if (configError) return [];
  const checks: Check[] = [];
  if (!setup.defaultModel) checks.push(fail("model", setup.problem ?? "no model can be used"));
  else checks.push(ok("model", `new sessions use ${setup.defaultModel.provider}/${setup.defaultModel.model}`));
  if (setup.scripted) checks.push(ok("provider scripted", "offline, plays scripted scenarios"));
  const reaches = await Promise.all(
    setup.providers.map(async (p) => {
      const name = `provider ${p.id}`;
      if (p.missing) return (setup.defaultModel?.provider === p.id ? fail : warn)(name, p.missing);
      const reach = await reachProvider(p);
      return reach.ok
        ? ok(name, reach.message)
        : (setup.defaultModel?.provider === p.id ? fail : warn)(name, reach.message);
    }),
  );
  return [...checks, ...reaches];
}

function trustChecks(env: Env, cwd: string): Check[] {
  const folders = trustedFolders(env);
  const checks: Check[] = folders.map((folder) =>
    statSync(folder, { throwIfNoEntry: false })?.isDirectory()
      ? ok("trusted folder", folder)
      : warn("trusted folder", `${folder} no longer exists; remove it from trustedFolders in the user config`),
  );
  const trusted = providerStatus(env, cwd).trusted;
  checks.push(
    ok(
      "this workspace",
      `${cwd} is ${trusted ? "trusted: its project hooks run" : "not trusted: its project hooks do not run (verbatim trust to trust it)"}`,
    ),
  );
  return checks;
}
