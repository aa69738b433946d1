/**
 * The image library Read uses: jimp (pure JavaScript), built from its parts that decode, scale
 * and encode PNG, JPEG and GIF (the whole of jimp is four times the size, its other plugins
 * unused); jSquash's WebP decoder (WebAssembly, from Squoosh) reads WebP, which jimp does not.
 * Loaded by the first Read of an image: most sessions read none. The build (`scripts/build.ts`)
 * bundles this module apart, with the decoder's `.wasm` file beside it.
 */
import { readFileSync } from "node:fs";
import { isAbsolute } from "node:path";
import decodeWebp, { init as initWebp } from "@jsquash/webp/decode.js";
// The decoder's WebAssembly as a file: copied beside the bundle by the build, embedded in the single binary.
import webpWasmPath from "@jsquash/webp/codec/dec/webp_dec.wasm" with { type: "file" };

import { createJimp } from "@jimp/core";
import gif from "@jimp/js-gif";
import jpeg from "@jimp/js-jpeg";
import png from "@jimp/js-png";
import { methods as resize } from "@jimp/plugin-resize";

export const Jimp = createJimp({ formats: [png, jpeg, gif], plugins: [resize] });

let webpReady: Promise<void> | undefined;

/** Decodes a WebP image to RGBA pixels; rejects on a file that is not a well-formed WebP. */
export async function webpPixels(
  bytes: Uint8Array,
): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  webpReady ??= WebAssembly.compile(readFileSync(wasmFile(webpWasmPath))).then((module) => initWebp(module));
  await webpReady;
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const image = await decodeWebp(buffer);
  return { data: image.data, width: image.width, height: image.height };
}

/**
 * Where the decoder's WebAssembly is: the file itself when run from source or from the single
 * binary (an absolute path, into the binary's embedded files there); beside this bundle in dist/.
 */
const wasmFile = (path: string) => (isAbsolute(path) ? path : require.resolve(path));
