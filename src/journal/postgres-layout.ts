/**
 * The journal's layout version on a PostgreSQL server, as one store sees it: read (never
 * written) before a read, created or upgraded before the first write (postgres-schema.ts).
 */
import type { SQL } from "bun";
import { JournalError } from "./errors.ts";
import { HARDENED_MARKS, hardeningSql, LAYOUT_LOCK_KEY, PG_LAYOUT_VERSION, upgrades } from "./postgres-schema.ts";
import { log } from "../shared/log.ts";

type Guard = <T>(sessionId: string | undefined, run: () => Promise<T>) => Promise<T>;

export class PostgresLayout {
  #writable: Promise<void> | undefined;
  #layout: Promise<number | undefined> | undefined;

  constructor(
    private readonly sql: SQL,
    private readonly guard: Guard,
  ) {}

  /** The layout version, or undefined where no journal was ever written; throws for a newer one. Never writes. */
  read(): Promise<number | undefined> {
    const layout = this.#layout ?? this.guard(undefined, () => currentLayout(this.sql)).then(checkVersion);
    // Only a layout found is kept: another process may create it at any moment.
    this.#layout = layout;
    layout.then(
      (version) => {
        if (version === undefined && this.#layout === layout) this.#layout = undefined;
      },
      () => {
        if (this.#layout === layout) this.#layout = undefined;
      },
    );
    return layout;
  }

  /** Creates or upgrades the layout before the first write (under a lock: processes may start together). */
  ensure(): Promise<void> {
    this.#writable ??= this.guard(undefined, () =>
      this.sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${LAYOUT_LOCK_KEY})`;
        const version = checkVersion(await currentLayout(tx)) ?? 0;
        for (let v = version; v < PG_LAYOUT_VERSION; v++) await tx.unsafe(upgrades[v]!);
        if (version < PG_LAYOUT_VERSION) {
          await tx`INSERT INTO verbatim.meta (key, value) VALUES ('layout', ${String(PG_LAYOUT_VERSION)})
            ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
        }
      }),
    ).then(async () => {
      this.#layout = Promise.resolve(PG_LAYOUT_VERSION);
      await harden(this.sql);
    });
    this.#writable.catch(() => {
      this.#writable = undefined;
    });
    return this.#writable;
  }
}

/**
 * Brings layout 1 up to what it gained since (postgres-schema.ts: hardeningSql), once, under the
 * layout lock. A role that may not (the machines' writer role of docs/deployment.md does not own
 * the tables) leaves it to the owner's next write.
 */
async function harden(sql: SQL): Promise<void> {
  try {
    const [row] =
      (await sql`SELECT bool_and(to_regclass(name) IS NOT NULL) AS present FROM unnest(${sql.array(HARDENED_MARKS, "TEXT")}) AS name`) as {
        present: boolean;
      }[];
    if (row?.present) return;
    await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${LAYOUT_LOCK_KEY})`;
      await tx.unsafe(hardeningSql);
    });
  } catch (error) {
    log.debug(`the journal's layout was not hardened: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function currentLayout(sql: SQL): Promise<number | undefined> {
  const [present] = (await sql`SELECT to_regclass('verbatim.meta') IS NOT NULL AS present`) as { present: boolean }[];
  if (!present?.present) return undefined;
  const [row] = (await sql`SELECT value FROM verbatim.meta WHERE key = 'layout'`) as { value: string }[];
  const version = Number(row?.value);
  if (!row || !Number.isInteger(version))
    throw new JournalError("corrupt_database", "the journal database has no layout record");
  return version;
}

function checkVersion(version: number | undefined): number | undefined {
  if (version !== undefined && version > PG_LAYOUT_VERSION) {
    throw new JournalError(
      "newer_database",
      `the journal database was written by a newer verbatim (layout ${version}; this version knows ${PG_LAYOUT_VERSION})`,
    );
  }
  return version;
}
