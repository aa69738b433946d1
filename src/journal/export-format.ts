/**
 * The file a session travels in (`verbatim export`, `verbatim import`): JSON lines. The first
 * names the format and its version and describes the session; then each record as the store
 * holds it (its sequence number, time, kind, record version and body, large payloads by hash),
 * each followed by the payloads it refers to that no earlier record did. Only facts and payloads
 * travel: nothing a store keeps beside them (leases, caches) is in the file.
 */
import { z } from "zod";
import { sha256Hex } from "../sha256.ts";
import { decodeRecord, encodeFact } from "./codec.ts";
import { JournalError } from "./errors.ts";
import type { Fact, StoredFact } from "./facts/index.ts";
import type { SessionRow } from "./store.ts";
import { defined } from "../defined.ts";

export const EXPORT_FORMAT = "verbatim-session-export";
/** The newest export format this verbatim writes and reads. */
export const EXPORT_VERSION = 1;

const sessionHeader = z.object({
  sessionId: z.string(),
  cwd: z.string(),
  additionalDirectories: z.array(z.string()),
  title: z.string().optional(),
  createdAt: z.string(),
  forkOf: z.object({ sessionId: z.string(), seq: z.number().int().positive() }).optional(),
});
const header = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.number().int().positive(),
  session: sessionHeader,
});
const factLine = z.object({
  seq: z.number().int().positive(),
  at: z.string(),
  kind: z.string(),
  v: z.number().int().positive(),
  body: z.record(z.string(), z.unknown()),
});
const blobLine = z.object({ blob: z.string(), data: z.string() });

/** The lines of a session's export file, each without its newline. */
export async function* exportLines(
  row: SessionRow,
  records: AsyncIterable<readonly StoredFact[]>,
): AsyncGenerator<string> {
  const session: z.infer<typeof sessionHeader> = {
    sessionId: row.sessionId,
    cwd: row.cwd,
    additionalDirectories: row.additionalDirectories,
    createdAt: row.createdAt,
    ...defined({ title: row.title, forkOf: row.forkOf }),
  };
  yield JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, session });
  const written = new Set<string>();
  for await (const page of records) {
    for (const { seq, at, fact } of page) {
      const e = encodeFact(fact);
      yield JSON.stringify({ seq, at, kind: e.kind, v: e.v, body: JSON.parse(e.body) as unknown });
      for (const [hash, data] of e.blobs) {
        if (written.has(hash)) continue;
        written.add(hash);
        yield JSON.stringify({ blob: hash, data });
      }
    }
  }
}

/** A session read back from an export file, every record validated. */
export type ImportedSession = { row: SessionRow; records: { fact: Fact; at: string }[] };

const damaged = (line: number, why: string) => new JournalError("corrupt_record", `line ${line} ${why}`, { line });

/**
 * Reads an export file whole and validates every line before anything is written: the header's
 * format and version (a newer version is refused, naming it), each payload against its hash, and
 * each record with the store's own codec (a newer record format is refused as the store refuses
 * it), numbered 1, 2, ... and opening with the session's start. Throws a JournalError saying
 * what is wrong where.
 */
export function parseExport(text: string): ImportedSession {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const first = parseLine(lines[0] ?? "", 1);
  const format = (first as { format?: unknown } | undefined)?.format;
  if (format !== EXPORT_FORMAT)
    throw new JournalError(
      "corrupt_record",
      `this is not a verbatim session export (its first line does not name the format ${EXPORT_FORMAT})`,
      { line: 1 },
    );
  const version = (first as { version?: unknown }).version;
  if (typeof version === "number" && version > EXPORT_VERSION) {
    throw new JournalError(
      "newer_record",
      `this export was written by a newer verbatim (export format ${version}; this version reads up to ${EXPORT_VERSION}). Upgrade verbatim to import it.`,
      { line: 1, version },
    );
  }
  const head = header.safeParse(first);
  if (!head.success)
    throw damaged(
      1,
      `is not a valid export header (${head.error.issues[0]?.path.join(".") || "header"}: ${head.error.issues[0]?.message})`,
    );
  const { session } = head.data;
  const blobs = new Map<string, string>();
  const rows: { line: number; row: z.infer<typeof factLine> }[] = [];
  for (let i = 1; i < lines.length; i++) {
    const value = parseLine(lines[i] as string, i + 1);
    const blob = blobLine.safeParse(value);
    if (blob.success) {
      if (sha256Hex(blob.data.data) !== blob.data.blob)
        throw damaged(i + 1, `holds a payload that does not match its hash ${blob.data.blob}`);
      blobs.set(blob.data.blob, blob.data.data);
      continue;
    }
    const fact = factLine.safeParse(value);
    if (!fact.success) throw damaged(i + 1, "is neither a record nor a payload");
    if (fact.data.seq !== rows.length + 1)
      throw damaged(i + 1, `is record ${fact.data.seq} where record ${rows.length + 1} belongs`);
    rows.push({ line: i + 1, row: fact.data });
  }
  const records = rows.map(({ line, row }) => {
    try {
      const stored = decodeRecord(session.sessionId, { ...row, body: JSON.stringify(row.body) }, (hash) =>
        blobs.get(hash),
      );
      return { fact: stored.fact, at: stored.at };
    } catch (error) {
      if (error instanceof JournalError)
        throw new JournalError(error.code, `line ${line}: ${error.message}`, { ...error.details, line });
      throw error;
    }
  });
  if (records[0]?.fact.kind !== "session_started")
    throw damaged(2, "is not the session's start: the export holds no session");
  const row: SessionRow = {
    sessionId: session.sessionId,
    cwd: session.cwd,
    additionalDirectories: session.additionalDirectories,
    createdAt: session.createdAt,
    updatedAt: session.createdAt,
    ...defined({ title: session.title, forkOf: session.forkOf }),
  };
  return { row, records };
}

function parseLine(line: string, number: number): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    throw damaged(number, "is not valid JSON");
  }
}
