/**
 * The scaffold of a test that drives one in-process client. Apart from acp-session.ts because it
 * makes its sandbox through workspace.ts, which registers the test runner's cleanup: the benchmarks
 * that import acp-session.ts run outside the test runner.
 */
import { type ClientOptions, type Connected, connectInProcess } from "./acp-session.ts";
import { sandbox, type Sandbox } from "./workspace.ts";

/**
 * Runs `run` with an agent wired in-process (connectInProcess) in a fresh sandbox playing
 * `scenario`, and closes it however `run` ends: the scaffold of a test that drives one client.
 */
export async function withAgent<T>(
  scenario: string,
  run: (c: Connected, box: Sandbox) => Promise<T>,
  options: ClientOptions = {},
): Promise<T> {
  const box = sandbox(scenario);
  const c = await connectInProcess(box.env, options);
  try {
    return await run(c, box);
  } finally {
    await c.close();
  }
}
