/** A small seeded PRNG (mulberry32) so generated cases reproduce from their seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed for a generated suite: VERBATIM_TEST_SEED when set, else the suite's default. */
export const suiteSeed = (fallback: number) => {
  const fromEnv = Number(process.env.VERBATIM_TEST_SEED);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : fallback;
};
