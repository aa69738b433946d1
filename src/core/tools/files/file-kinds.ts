/**
 * What a file is, from its first bytes (its signature), so Read can say what it cannot show: an
 * image, a PDF, an archive, an executable. Only signatures are read here; decoding is the image
 * and PDF libraries' work (image-file.ts, pdf-file.ts).
 */

/** The images Read gives the model: the formats every provider's wire takes. */
export type ImageFormat = "png" | "jpeg" | "gif" | "webp";

export type FileKind =
  | { kind: "image"; format: ImageFormat; mimeType: string }
  | { kind: "pdf" }
  | { kind: "other-binary"; what: string };

const IMAGE_MIME: Record<ImageFormat, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

export const imageMimeType = (format: ImageFormat) => IMAGE_MIME[format];

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Binary formats Read names when it refuses them, by signature (offset, bytes). */
const NAMED: { what: string; signature: number[]; at?: number }[] = [
  { what: "a ZIP archive", signature: [0x50, 0x4b, 0x03, 0x04] },
  { what: "a gzip archive", signature: [0x1f, 0x8b] },
  { what: "a bzip2 archive", signature: ascii("BZh") },
  { what: "an xz archive", signature: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { what: "a Zstandard archive", signature: [0x28, 0xb5, 0x2f, 0xfd] },
  { what: "a 7-Zip archive", signature: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { what: "a RAR archive", signature: ascii("Rar!\x1a\x07") },
  { what: "a tar archive", signature: ascii("ustar"), at: 257 },
  { what: "an ELF executable", signature: [0x7f, 0x45, 0x4c, 0x46] },
  { what: "a Windows executable", signature: ascii("MZ") },
  { what: "a Mach-O executable", signature: [0xcf, 0xfa, 0xed, 0xfe] },
  { what: "a Mach-O executable", signature: [0xce, 0xfa, 0xed, 0xfe] },
  { what: "a Mach-O executable", signature: [0xca, 0xfe, 0xba, 0xbe] },
  { what: "a WebAssembly module", signature: [0x00, 0x61, 0x73, 0x6d] },
  { what: "a Java class file", signature: [0xca, 0xfe, 0xba, 0xbe, 0x00] },
  { what: "an SQLite database", signature: ascii("SQLite format 3\0") },
  { what: "a BMP image (Read gives the model PNG, JPEG, GIF and WebP images only)", signature: ascii("BM") },
  { what: "a TIFF image (Read gives the model PNG, JPEG, GIF and WebP images only)", signature: ascii("II*\0") },
  { what: "a TIFF image (Read gives the model PNG, JPEG, GIF and WebP images only)", signature: ascii("MM\0*") },
  { what: "an ICO icon (Read gives the model PNG, JPEG, GIF and WebP images only)", signature: [0, 0, 1, 0] },
  { what: "an MP3 audio file", signature: ascii("ID3") },
  { what: "an Ogg media file", signature: ascii("OggS") },
  { what: "a Matroska or WebM video", signature: [0x1a, 0x45, 0xdf, 0xa3] },
  { what: "an MP4 or QuickTime video", signature: ascii("ftyp"), at: 4 },
];

/** The image format a file's first bytes announce, if one Read gives the model. */
export function imageFormatOf(head: Uint8Array): ImageFormat | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"))) return "gif";
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) return "webp";
  return undefined;
}

/**
 * The kind of a file from its first bytes: an image Read shows, a PDF, or another binary format
 * named for the refusal; undefined for a file with no signature Read knows (text, or a binary
 * the caller tells by its NUL bytes).
 */
export function fileKindOf(head: Uint8Array): FileKind | undefined {
  const format = imageFormatOf(head);
  if (format) return { kind: "image", format, mimeType: IMAGE_MIME[format] };
  if (startsWith(head, ascii("%PDF-"))) return { kind: "pdf" };
  // The Java class signature is the Mach-O universal one followed by a version: the longer match wins.
  const named = NAMED.filter((n) => startsWith(head, n.signature, n.at)).sort(
    (a, b) => b.signature.length - a.signature.length,
  )[0];
  return named ? { kind: "other-binary", what: named.what } : undefined;
}

/** The image format a file name promises (a `.png` that is not a PNG is a corrupt image). */
export function imageFormatByName(path: string): ImageFormat | undefined {
  const ext = path.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if (ext === "png") return "png";
  if (ext === "jpg" || ext === "jpeg") return "jpeg";
  if (ext === "gif") return "gif";
  if (ext === "webp") return "webp";
  return undefined;
}
