/**
 * Encoding of facts into stored records and back. Every record carries the format version it
 * was written in; readers accept every version ever written and migrate in memory, writers
 * always write the newest. Decoding never writes.
 */
import "../shared/zod-jitless.ts";
import { compile } from "zod/v4/core";
import { blobRefsOf, extractBlobs, restoreBlobs } from "./blob-refs.ts";
import { JournalError } from "./errors.ts";
import { builtSchema } from "../shared/lazy-schema.ts";
import { factSchema, factSchemas, type Fact, type StoredFact } from "./facts/index.ts";

/** The newest record format. Bump it only together with a migration from the previous one. */
export const RECORD_VERSION = 1;

type RawRecord = { kind: string; body: Record<string, unknown> };

/**
 * In-memory migrations: `migrations[v]` turns a version-v record into a version-(v+1) record.
 * Empty while only version 1 exists; golden journals keep every old version loadable.
 */
const migrations: Record<number, (record: RawRecord) => RawRecord> = {};

/** A record to store: its body, and the large payloads taken out of it by hash (see blob-refs.ts). */
export type EncodedFact = { kind: string; v: number; body: string; blobs: Map<string, string> };

type KindSchema = (typeof factSchemas)[number];

/**
 * Each kind's own schema: decoding looks the record's kind up directly rather than through the
 * union (the same schemas; a load decodes tens of thousands of records). Unknown kinds go
 * through the union, for its error.
 */
const schemaByKind = new Map<string, KindSchema>();
/** How many of `factSchemas` `schemaByKind` holds: the search for a kind builds only the schemas it passes. */
let searched = 0;

/** The schema of `kind` (built), or undefined for a kind verbatim does not record. */
function kindSchema(kind: string): KindSchema | undefined {
  for (;;) {
    const found = schemaByKind.get(kind);
    if (found || searched === factSchemas.length) return found;
    const option = builtSchema(factSchemas[searched++] as KindSchema);
    schemaByKind.set(option.shape.kind.value, option);
  }
}

/**
 * How many records of a kind are decoded before its schema is compiled. zod's runtime parser
 * costs microseconds a record in a fresh process; its compiled parser (`compile`, zod's own: the
 * same result, and the runtime parser for anything its fast path declines) a fraction of that,
 * but generating it costs a millisecond or two. A kind seen a few times in a session is parsed by
 * the runtime; a kind seen this often is compiled, and its later records parse fast.
 */
export const COMPILE_AFTER = 256;

/** Runtime parses skip zod's per-object code generation, which costs more than it saves for a few parses. */
const INTERPRETED = { jitless: true } as const;

type KindDecoder = { schema: KindSchema; seen: number; compiled: boolean };
const decoders = new Map<string, KindDecoder>();

/** Validates a record body against its kind's schema (the union's, for an unknown kind). */
function parseFact(kind: string, body: Record<string, unknown>) {
  let decoder = decoders.get(kind);
  if (!decoder) {
    const schema = kindSchema(kind);
    if (!schema) return factSchema.safeParse(body, INTERPRETED);
    decoder = { schema, seen: 0, compiled: false };
    decoders.set(kind, decoder);
  }
  if (!decoder.compiled && ++decoder.seen >= COMPILE_AFTER) {
    decoder.schema = compile(decoder.schema);
    decoder.compiled = true;
  }
  // A compiled schema tries its fast path first; whatever it declines is parsed by the runtime, interpreted.
  return decoder.schema.safeParse(body, INTERPRETED);
}

export function encodeFact(fact: Fact): EncodedFact {
  const { kind, ...body } = fact;
  const { body: stored, refs, blobs } = extractBlobs(body);
  const withRefs = refs.length ? { ...stored, $blobs: refs } : stored;
  return { kind, v: RECORD_VERSION, body: JSON.stringify(withRefs), blobs };
}

/** Finds a stored payload by content hash (undefined when the store has none). */
export type BlobLookup = (sha256: string) => string | undefined;

/**
 * The number after `seq`, the row read where record `expected` should be: a journal's records are
 * numbered without a gap. Throws `missing_record` when the row is a later one.
 */
export function nextInSequence(sessionId: string, expected: number, seq: number): number {
  if (seq !== expected)
    throw new JournalError(
      "missing_record",
      `session ${sessionId} is missing record ${expected} (the next stored record is ${seq})`,
      { sessionId, seq: expected },
    );
  return expected + 1;
}

/** Decodes one stored row. Throws a JournalError naming the session and record on any defect. */
export function decodeRecord(
  sessionId: string,
  row: { seq: number; kind: string; v: number; at: string; body: string },
  blob: BlobLookup = () => undefined,
): StoredFact {
  const where = { sessionId, seq: row.seq, kind: row.kind };
  if (row.v > RECORD_VERSION) {
    throw new JournalError(
      "newer_record",
      `session ${sessionId} record ${row.seq} (${row.kind}) was written by a newer verbatim ` +
        `(record format ${row.v}; this version reads up to ${RECORD_VERSION}). Upgrade verbatim to open it.`,
      { ...where, version: row.v },
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(row.body);
  } catch {
    throw new JournalError(
      "corrupt_record",
      `session ${sessionId} record ${row.seq} (${row.kind}) is not valid JSON`,
      where,
    );
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new JournalError(
      "corrupt_record",
      `session ${sessionId} record ${row.seq} (${row.kind}) is not an object`,
      where,
    );
  }
  const refs = blobRefsOf(body as Record<string, unknown>);
  if (refs) {
    const { $blobs: _refs, ...rest } = body as Record<string, unknown>;
    const problem = restoreBlobs(rest, refs, blob);
    if (problem)
      throw new JournalError(
        "corrupt_record",
        `session ${sessionId} record ${row.seq} (${row.kind}): ${problem}`,
        where,
      );
    body = rest;
  }
  let raw: RawRecord = { kind: row.kind, body: body as Record<string, unknown> };
  for (let v = row.v; v < RECORD_VERSION; v++) {
    const migrate = migrations[v];
    if (!migrate) throw new JournalError("corrupt_record", `no migration from record format ${v}`, where);
    raw = migrate(raw);
  }
  // The body is this decoder's own object (fresh from JSON.parse or a migration): the kind is
  // set on it in place rather than copied, as the column holds it, not the body.
  raw.body.kind = raw.kind;
  const parsed = parseFact(raw.kind, raw.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") || "(record)";
    throw new JournalError(
      "corrupt_record",
      `session ${sessionId} record ${row.seq} (${row.kind}) does not match its schema: ${path}: ${issue?.message ?? "invalid"}`,
      where,
    );
  }
  return { seq: row.seq, at: row.at, fact: parsed.data };
}
