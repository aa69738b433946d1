/**
 * A kind of row kept beside a session's facts and keyed by the session and one id of its own
 * (answer claims, attachments): its body a JSON document of one schema, never a fact, deleted with
 * its session. One description gives its body's reading and its table on both stores.
 */
import type { z } from "zod";
import { storedBody } from "./stored-body.ts";

export type KeyedSideRows<T> = {
  /** The row stored as `body`, if it is one (a row of another shape is none). */
  fromBody(body: string): T | undefined;
  sqliteSql: string;
  postgresSql: string;
};

/**
 * `table` keyed by `session_id` and `key`, with its `body`; `more` are the columns after those on
 * each store; `withoutRowid` makes the SQLite table one (its rows are small and found by key).
 */
export function keyedSideRows<T>(
  schema: z.ZodType<T>,
  table: { name: string; key: string; more?: { sqlite: string; postgres: string }; withoutRowid?: boolean },
): KeyedSideRows<T> {
  const { name, key, more } = table;
  const columns = (text: string, extra: string | undefined) =>
    `  session_id ${text} NOT NULL,\n  ${key} ${text} NOT NULL,\n  body ${text} NOT NULL,\n${extra ? `  ${extra},\n` : ""}  PRIMARY KEY (session_id, ${key})`;
  return {
    fromBody: (body) => storedBody(schema, body),
    sqliteSql: `\nCREATE TABLE IF NOT EXISTS ${name} (\n${columns("TEXT", more?.sqlite)}\n)${table.withoutRowid ? " WITHOUT ROWID" : ""};\n`,
    postgresSql: `\nCREATE TABLE IF NOT EXISTS verbatim.${name} (\n${columns("text", more?.postgres)}\n);\n`,
  };
}
