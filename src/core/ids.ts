/**
 * Engine-minted public ids. Every id a client sees (sessions, messages, tool calls, permission
 * requests, turns) is minted here and recorded in a fact, so a reload shows the same ids.
 */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** A time-ordered id: a millisecond time prefix and 80 random bits, in lowercase base32. */
export function mintId(prefix: string): string {
  let time = Date.now();
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = ALPHABET[time % 32] + head;
    time = Math.floor(time / 32);
  }
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  let tail = "";
  for (let i = 0; i < 10; i += 5) {
    // 5 bytes = 40 bits = 8 base32 digits.
    let n = 0n;
    for (let j = 0; j < 5; j++) n = (n << 8n) | BigInt(bytes[i + j] ?? 0);
    for (let k = 0; k < 8; k++) {
      tail += ALPHABET[Number(n & 31n)];
      n >>= 5n;
    }
  }
  return `${prefix}_${head}${tail}`;
}

/** Session ids are used in storage keys and paths: letters, digits, `_` and `-`, at most 128. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export const isValidSessionId = (id: string): boolean => SESSION_ID.test(id);
