/**
 * The file a session travels in (`verbatim export`, `verbatim import`): JSON lines. The first
 * names the format and its version and describes the session; then each record as the store
 * holds it (its sequence number, time, kind, record version and body, large payloads by hash),
 * each followed by the payloads it refers to that no earlier record did. Only facts and payloads
 * travel: nothing a store keeps beside them (leases, caches) is in the file.
 */
import { z } from "zod";
import { sha256Hex } from "../shared/sha256.ts";
import { decodeRecord, encodeFact } from "./codec.ts";
import { JournalError } from "./errors.ts";
import type { Fact, StoredFact } from "./facts/index.ts";
import { nestsDeeperThan } from "./json-nesting.ts";
import type { SessionRow } from "./store.ts";
import { defined } from "../shared/defined.ts";

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

/**
 * The deepest nesting of arrays and objects a line may hold: far deeper than any record verbatim
 * writes, and shallow enough for every step of an import to walk (a deeper value would overflow
 * the stack and end the import with a trace instead of naming the line).
 */
export const MAX_NESTING = 1000;

const damaged = (line: number, why: string) => new JournalError("corrupt_record", `line ${line} ${why}`, { line });

type FactLine = z.infer<typeof factLine>;

/**
 * Reads an export file a line at a time (so a large file is never held whole) and validates
 * every line before anything is written: the header's format and version (a newer version is
 * refused, naming it), each payload against its hash, and each record with the store's own codec
 * (a newer record format is refused as the store refuses it), numbered 1, 2, ... and opening with
 * the session's start. `push` and `finish` throw a JournalError saying what is wrong where.
 */
export class ExportReader {
  #lines = 0;
  #session: z.infer<typeof sessionHeader> | undefined;
  readonly #blobs = new Map<string, string>();
  readonly #records: { fact: Fact; at: string }[] = [];
  /** The last record read, decoded once the payloads that follow it are in. */
  #pending: { line: number; row: FactLine } | undefined;

  /** The next line of the file, without its newline. */
  push(text: string): void {
    const number = ++this.#lines;
    if (number === 1) {
      this.#session = readHeader(text);
      return;
    }
    const value = parseLine(text, number);
    const blob = blobLine.safeParse(value);
    if (blob.success) {
      if (sha256Hex(blob.data.data) !== blob.data.blob)
        throw damaged(number, `holds a payload that does not match its hash ${blob.data.blob}`);
      this.#blobs.set(blob.data.blob, blob.data.data);
      return;
    }
    const fact = factLine.safeParse(value);
    if (!fact.success) throw damaged(number, "is neither a record nor a payload");
    this.#decodePending();
    const expected = this.#records.length + 1;
    if (fact.data.seq !== expected)
      throw damaged(number, `is record ${fact.data.seq} where record ${expected} belongs`);
    this.#pending = { line: number, row: fact.data };
  }

  /** The session the file holds, once every line is in. */
  finish(): ImportedSession {
    if (this.#session === undefined) throw damaged(1, "is missing: the file is empty");
    this.#decodePending();
    if (this.#records[0]?.fact.kind !== "session_started")
      throw damaged(2, "is not the session's start: the export holds no session");
    const session = this.#session;
    const row: SessionRow = {
      sessionId: session.sessionId,
      cwd: session.cwd,
      additionalDirectories: session.additionalDirectories,
      createdAt: session.createdAt,
      updatedAt: session.createdAt,
      ...defined({ title: session.title, forkOf: session.forkOf }),
    };
    return { row, records: this.#records };
  }

  #decodePending(): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#pending = undefined;
    const { line, row } = pending;
    try {
      const stored = decodeRecord(
        (this.#session as { sessionId: string }).sessionId,
        { ...row, body: JSON.stringify(row.body) },
        (hash) => this.#blobs.get(hash),
      );
      this.#records.push({ fact: stored.fact, at: stored.at });
    } catch (error) {
      if (error instanceof JournalError)
        throw new JournalError(error.code, `line ${line}: ${error.message}`, { ...error.details, line });
      throw error;
    }
  }
}

/** An export file's whole text read back (see ExportReader). */
export function parseExport(text: string): ImportedSession {
  const reader = new ExportReader();
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const line of lines) reader.push(line);
  return reader.finish();
}

function readHeader(text: string): z.infer<typeof sessionHeader> {
  const first = parseLine(text, 1);
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
  return head.data.session;
}

function parseLine(line: string, number: number): unknown {
  if (nestsDeeperThan(line, MAX_NESTING))
    throw damaged(number, `nests arrays or objects more than ${MAX_NESTING} deep (no record verbatim writes does)`);
  try {
    return JSON.parse(line) as unknown;
  } catch {
    throw damaged(number, "is not valid JSON");
  }
}
