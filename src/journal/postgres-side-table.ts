/**
 * A table beside the journal's layout (answer claims, the session inbox): created by its first
 * write, under the layout's lock (so that two machines creating it at once do not collide); a
 * journal without it simply has none of its rows.
 */
import type { SQL } from "bun";
import { LAYOUT_LOCK_KEY } from "./postgres-schema.ts";

export type SideTable = {
  /** Creates the table if it is not there yet. */
  ensure(sql: SQL): Promise<void>;
  /** Whether the table is there (reads never create it). */
  has(sql: SQL): Promise<boolean>;
};

/** `name`: the table's qualified name (`verbatim.x`); `ddl`: its idempotent creation. */
export function sideTable(name: string, ddl: string): SideTable {
  // Connections whose database is known to have the table.
  const ready = new WeakSet<SQL>();
  return {
    async ensure(sql) {
      if (ready.has(sql)) return;
      await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${LAYOUT_LOCK_KEY})`;
        await tx.unsafe(ddl);
      });
      ready.add(sql);
    },
    async has(sql) {
      if (ready.has(sql)) return true;
      const [row] = (await sql`SELECT to_regclass(${name}) IS NOT NULL AS present`) as { present: boolean }[];
      if (row?.present) ready.add(sql);
      return row?.present === true;
    },
  };
}
