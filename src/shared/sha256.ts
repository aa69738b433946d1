/**
 * The SHA-256 of a text (as UTF-8), in hex. Bun's own hasher: `node:crypto` would cost
 * milliseconds to load (it brings Node's streams), and the engine loads it on a session's first
 * method.
 */
export const sha256Hex = (text: string): string => Bun.SHA256.hash(text, "hex");
