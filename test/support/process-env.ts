/** Runs `body` with `env` set in process.env (for code that reads the environment itself), then puts it back as it was. */
export async function withProcessEnv<T>(env: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const previous = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await body();
  } finally {
    for (const key of Object.keys(env)) {
      if (previous[key] === undefined) delete process.env[key];
      else process.env[key] = previous[key];
    }
  }
}
