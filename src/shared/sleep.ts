/**
 * Waits `ms`, or less if `signal` aborts first. Never rejects. With `keepsAlive: false` the wait
 * does not keep the process running (a background poll: the process may end while it waits).
 */
export const sleep = (ms: number, signal: AbortSignal, { keepsAlive = true }: { keepsAlive?: boolean } = {}) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(finish, ms);
    if (!keepsAlive) timer.unref();
    function finish() {
      clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    }
    signal.addEventListener("abort", finish, { once: true });
  });
