/**
 * How the PostgreSQL store keeps a replay cache row's lines: as one zstd frame, in base64 (the
 * `lines` column is text). Bun's PostgreSQL client decodes what it reads at about 175 MB/s, text
 * or bytea alike, and cached lines compress about 5.6 times: a 500-turn session's 2.2 MB of lines
 * read in 13.2 ms as text, in 6.4 ms packed (read, base64 decoded and decompressed; scratch
 * measurement, docs/performance.md). SQLite reads its own pages faster than a frame decompresses,
 * so it keeps the lines as text. A row kept as text before (lines start with `{`) reads as it was.
 * Unpacking is bounded: only a single frame that states its size, of MAX_LINES_BYTES at most, and
 * ends where the stored value ends, is decompressed (the decoder refuses to write past the stated
 * size). Anything else comes back as stored, and then fails the row's checksum or seal like any
 * damaged row: a forged row in a shared journal cannot make a load allocate more than the bound.
 */

/** The most a row's lines may unpack to (a turn's replay; far more than any turn sends). */
export const MAX_LINES_BYTES = 256 * 1024 * 1024;

const MAGIC = [0x28, 0xb5, 0x2f, 0xfd] as const;
/** The frame's magic number in base64, as a PostgreSQL row's text starts. */
const MAGIC_BASE64 = "KLUv/";

/** The lines as the PostgreSQL store keeps them: a zstd frame in base64 (never starts with `{`). */
export function packLines(lines: string): string {
  return Buffer.from(Bun.zstdCompressSync(Buffer.from(lines))).toString("base64");
}

/** Stored lines as text: unpacked when they are a sound frame, else as stored. */
export function unpackLines(stored: string): string {
  const lines = unpacked(stored);
  return lines ? Buffer.from(lines).toString("utf8") : stored;
}

/** Stored lines as a load writes them: the bytes unpacked when they are a sound frame, else the text as stored. */
export function unpackLinesForLoad(stored: string): string | Uint8Array {
  return unpacked(stored) ?? stored;
}

/** The frame's content, when `stored` is a sound frame in base64. */
function unpacked(stored: string): Uint8Array | undefined {
  if (!stored.startsWith(MAGIC_BASE64)) return undefined;
  const frame = Buffer.from(stored, "base64");
  if (!isFrame(frame)) return undefined;
  const size = frameContentSize(frame);
  if (size === undefined || size > MAX_LINES_BYTES) return undefined;
  try {
    const lines = Bun.zstdDecompressSync(frame);
    return lines.length === size ? lines : undefined;
  } catch {
    return undefined;
  }
}

function isFrame(bytes: Uint8Array): boolean {
  return bytes.length > 4 && MAGIC.every((b, i) => bytes[i] === b);
}

/**
 * The size a zstd frame states for its content, when `bytes` is exactly one frame that states it
 * (RFC 8878, 3.1.1): its header, then blocks up to the one marked last, then its checksum if the
 * header says there is one, and nothing after. Undefined otherwise.
 */
function frameContentSize(bytes: Uint8Array): number | undefined {
  const descriptor = bytes[4] as number;
  const sizeFlag = descriptor >> 6;
  const singleSegment = (descriptor >> 5) & 1;
  const hasChecksum = (descriptor >> 2) & 1;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3] as number;
  const sizeBytes = [singleSegment, 2, 4, 8][sizeFlag] as number;
  if (sizeBytes === 0) return undefined;
  let at = 5 + (singleSegment ? 0 : 1) + dictionaryBytes;
  if (at + sizeBytes > bytes.length) return undefined;
  let size = 0;
  for (let i = sizeBytes - 1; i >= 0; i--) size = size * 256 + (bytes[at + i] as number);
  if (sizeBytes === 2) size += 256;
  at += sizeBytes;
  for (let last = false; !last; ) {
    if (at + 3 > bytes.length) return undefined;
    const header = (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16);
    last = (header & 1) === 1;
    const type = (header >> 1) & 3;
    if (type === 3) return undefined;
    // A run-length block holds one byte, repeated; raw and compressed blocks hold their size.
    at += 3 + (type === 1 ? 1 : header >>> 3);
  }
  return at + (hasChecksum ? 4 : 0) === bytes.length ? size : undefined;
}
