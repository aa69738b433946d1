/**
 * The replay cache's seal: a key only this user's verbatim holds (`replay-seal.key` in the user's
 * config folder, 0600, never journaled or logged), under which the writer MACs every row it stores
 * (journal/replay-cache.ts: `replayRowMac`). A load writes the lines of a row its own key sealed
 * as they are, since nobody without the key can forge one, and no other row's: a row another
 * machine wrote to a shared journal, one from before the seal, one whose seal names another key
 * is replayed from the facts (core/replay-cache/cached-run.ts). A row whose seal names this key
 * and does not hold is damaged. Without a usable key (a config folder others can write, a key file
 * others can read or that is not a key), no row is stored and every load replays the facts.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import {
  replayRowMac,
  sealedChecksum,
  storedChecksum,
  type ReplayCachePageRow,
  type ReplayCacheRow,
} from "../../journal/replay-cache.ts";
import { log } from "../../shared/log.ts";
import { userConfigFolder } from "../../shared/user-config-folder.ts";
import { createPrivateFile, PrivateWriteError } from "../confinement/private-write.ts";
import { readOwnFile } from "../confinement/own-files.ts";

/** What a load makes of a row's seal: by this key and holding, by this key and not, or none of this key's. */
export type SealVerdict = "sealed" | "broken" | "unsealed";

export type ReplaySeal = {
  /** The row with this key's seal after its checksum (the row as it was, without a usable key). Creates the key when there is none. */
  seal(sessionId: string, row: ReplayCacheRow): ReplayCacheRow;
  /** The row's seal judged by this key. Never creates the key. */
  verdict(sessionId: string, row: ReplayCachePageRow): SealVerdict;
  /** Reads the key now, as the first verdict would (so that a load does not wait for it). Never creates the key. */
  warm(): void;
  /** Whether rows can be sealed: a usable key, created when there is none. Without one no load would use a row. */
  usable(): boolean;
};

type Key = { id: string; bytes: Uint8Array };

/** The key's file in the user's config folder. */
export const sealKeyFile = (env: Record<string, string | undefined>): string => join(userConfigFolder(env), KEY_FILE);

const KEY_FILE = "replay-seal.key";
const KEY_TEXT = /^([0-9a-f]{64})\n?$/;

/** The seal of the user whose config folder `env` names; the key is read (or created) when first needed. */
export function replaySeal(env: Record<string, string | undefined>): ReplaySeal {
  const folder = userConfigFolder(env);
  const path = sealKeyFile(env);
  /** undefined: not looked for yet; "none": no key file yet; null: none usable (told once). */
  let key: Key | null | "none" | undefined;
  const unusable = (why: string): null => {
    log.warn(`the replay cache is not kept: ${why}; a load replays the facts instead`);
    return null;
  };
  /** The key file's key; undefined when there is no file. */
  const read = (): Key | null | undefined => {
    const file = readOwnFile(path, [folder], { maxBytes: 128 });
    if (file.state === "missing") return undefined;
    if (file.state === "skipped") return unusable(`${path} was not read (${file.skipped.reason})`);
    const wrong = sealKeyProblem(path);
    if (wrong) return unusable(`${path} ${wrong.problem}`);
    const hex = KEY_TEXT.exec(file.text)?.[1];
    return hex ? keyOf(Buffer.from(hex, "hex")) : unusable(`${path} does not hold a key`);
  };
  const current = (): Key | null | "none" => {
    if (key === undefined) {
      const found = read();
      key = found === undefined ? "none" : found;
    }
    return key;
  };
  const created = (): Key | null => {
    try {
      createPrivateFile(path, `${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}\n`);
    } catch (error) {
      // A folder others can write, or one that cannot be written at all: the rows go unsealed.
      const why =
        error instanceof PrivateWriteError ? error.message : `${path} could not be created (${String(error)})`;
      return (key = unusable(why));
    }
    // Read back whichever key is there: another process may have created it first.
    return (key = read() ?? unusable(`${path} could not be created`));
  };
  return {
    seal(sessionId, row) {
      const found = current();
      const k = found === "none" ? created() : found;
      return k
        ? { ...row, checksum: sealedChecksum(row, { keyId: k.id, mac: replayRowMac(k.bytes, sessionId, row) }) }
        : row;
    },
    warm() {
      current();
    },
    usable() {
      const found = current();
      return (found === "none" ? created() : found) !== null;
    },
    verdict(sessionId, row) {
      const seal = storedChecksum(row.checksum).seal;
      const k = seal ? current() : null;
      if (!seal || !k || k === "none" || seal.keyId !== k.id) return "unsealed";
      return sameText(seal.mac, replayRowMac(k.bytes, sessionId, row)) ? "sealed" : "broken";
    },
  };
}

/**
 * Why the key file at `path` (which exists) seals nothing, and what fixes it; undefined when it is
 * the user's alone. It seals nothing when another account owns it (one put there in the user's
 * place) or others can read it.
 */
export function sealKeyProblem(path: string): { problem: string; fix: string } | undefined {
  const stats = lstatSync(path);
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid)
    return { problem: `belongs to another account (uid ${stats.uid})`, fix: "remove it, and verbatim makes a new one" };
  if ((stats.mode & 0o077) !== 0)
    return { problem: `is mode ${(stats.mode & 0o777).toString(8)}, readable by others`, fix: `chmod 600 ${path}` };
  return undefined;
}

/** A key with its id: the first 64 bits of its SHA-256, which says which key sealed a row and nothing of the key. */
function keyOf(bytes: Uint8Array): Key {
  return { id: new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 16), bytes };
}

/** Compares two strings in time that depends only on their lengths. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let differ = 0;
  for (let i = 0; i < a.length; i++) differ |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return differ === 0;
}
