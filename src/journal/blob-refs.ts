/**
 * Large payloads (image, audio and document data, embedded resource blobs, long embedded resource text)
 * are stored once per session by content hash, not inline in every record. A stored record
 * holds an empty string where the payload was and a reference (`$blobs`: where, which hash);
 * reading puts the payload back before the record is validated, so every reader above the store
 * sees the fact exactly as it was recorded.
 */
import { sha256Hex } from "../shared/sha256.ts";

/** Where in a record's body a payload was taken out, and its content hash. */
export type BlobRef = { path: (string | number)[]; sha256: string };

export type Extracted = { body: Record<string, unknown>; refs: BlobRef[]; blobs: Map<string, string> };

/** Embedded resource text shorter than this stays inline: the reference would cost as much. */
const MIN_TEXT_BLOB = 1024;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const sha256 = sha256Hex;

/** The payload field of a content block worth storing apart, if any. */
function payloadField(
  node: Record<string, unknown>,
): { holder: Record<string, unknown>; key: string; path: string[] } | undefined {
  const inline = node.type === "image" || node.type === "audio" || node.type === "document";
  if (inline && typeof node.data === "string" && node.data.length > 0) {
    return { holder: node, key: "data", path: ["data"] };
  }
  if (node.type === "resource" && isRecord(node.resource)) {
    const r = node.resource;
    if (typeof r.blob === "string" && r.blob.length > 0) return { holder: r, key: "blob", path: ["resource", "blob"] };
    if (typeof r.text === "string" && r.text.length >= MIN_TEXT_BLOB)
      return { holder: r, key: "text", path: ["resource", "text"] };
  }
  return undefined;
}

/**
 * Takes large payloads out of a record body (a deep copy where anything is taken; the input is
 * never changed). Returns the body to store, the references, and the payloads by hash.
 */
export function extractBlobs(body: Record<string, unknown>): Extracted {
  const refs: BlobRef[] = [];
  const blobs = new Map<string, string>();
  const walk = (node: unknown, path: (string | number)[]): unknown => {
    if (Array.isArray(node)) {
      let copy: unknown[] | undefined;
      node.forEach((item, i) => {
        const next = walk(item, [...path, i]);
        if (next !== item) (copy ??= [...node])[i] = next;
      });
      return copy ?? node;
    }
    if (!isRecord(node)) return node;
    const field = payloadField(node);
    if (field) {
      const data = field.holder[field.key] as string;
      const hash = sha256(data);
      blobs.set(hash, data);
      refs.push({ path: [...path, ...field.path], sha256: hash });
      const copy = structuredClone(node);
      const holder = field.path.length === 2 ? (copy.resource as Record<string, unknown>) : copy;
      holder[field.key] = "";
      return copy;
    }
    let copy: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(node)) {
      const next = walk(value, [...path, key]);
      if (next !== value) (copy ??= { ...node })[key] = next;
    }
    return copy ?? node;
  };
  const out = walk(body, []) as Record<string, unknown>;
  return { body: out, refs, blobs };
}

/**
 * Puts the payloads back into a stored body (mutating it). `lookup` returns a payload by hash,
 * or undefined when the store does not hold it; the first missing one is returned as an error.
 */
export function restoreBlobs(
  body: Record<string, unknown>,
  refs: BlobRef[],
  lookup: (sha256: string) => string | undefined,
): string | undefined {
  for (const ref of refs) {
    const data = lookup(ref.sha256);
    if (data === undefined) return `blob ${ref.sha256} is missing`;
    let node: unknown = body;
    for (const step of ref.path.slice(0, -1))
      node = isRecord(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[step] : undefined;
    const last = ref.path[ref.path.length - 1];
    if ((!isRecord(node) && !Array.isArray(node)) || last === undefined)
      return `blob reference ${ref.path.join(".")} does not point into the record`;
    (node as Record<string | number, unknown>)[last] = data;
  }
  return undefined;
}

/** Reads `$blobs` references out of a stored body, if it has any well-formed ones. */
export function blobRefsOf(body: Record<string, unknown>): BlobRef[] | undefined {
  const refs = body.$blobs;
  if (!Array.isArray(refs)) return undefined;
  const ok = refs.every(
    (r) =>
      isRecord(r) &&
      typeof r.sha256 === "string" &&
      Array.isArray(r.path) &&
      r.path.every((p) => typeof p === "string" || typeof p === "number"),
  );
  return ok ? (refs as BlobRef[]) : undefined;
}
