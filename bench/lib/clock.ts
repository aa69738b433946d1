/**
 * One clock for every process of a run: wall-clock milliseconds with sub-millisecond precision
 * (`timeOrigin` is fixed at process start, `performance.now()` is monotonic after it). A time
 * stamped in the agent and a time read in the client compare directly.
 */
export const now = (): number => performance.timeOrigin + performance.now();
