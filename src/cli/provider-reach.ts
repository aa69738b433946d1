/**
 * Whether a configured provider answers, for `verbatim doctor`: one request for its model list
 * (what every supported API serves), through the provider's own SDK client with its key and
 * headers, a short timeout and no retries; the answer read as advice (the adapters' failure
 * words, with the base URL hint). Nothing is sent to a model and nothing is recorded. The SDK
 * loads only here, as it does when a session first streams.
 */
import type { ResolvedProvider } from "../core/providers/provider-config.ts";
import type { Failure } from "../core/providers/retry-policy.ts";

export const REACH_TIMEOUT_MS = 5000;

export type Reach = { ok: boolean; message: string };

export async function reachProvider(p: ResolvedProvider, timeoutMs = REACH_TIMEOUT_MS): Promise<Reach> {
  const signal = AbortSignal.timeout(timeoutMs);
  let where = p.baseUrl ?? "";
  let failure: (error: unknown) => Failure;
  try {
    if (p.kind === "anthropic") {
      const [{ anthropicClient, ANTHROPIC_DEFAULT_URL }, { anthropicFailure }] = await Promise.all([
        import("../core/providers/anthropic/provider.ts"),
        import("../core/providers/anthropic/errors.ts"),
      ]);
      where ||= ANTHROPIC_DEFAULT_URL;
      failure = anthropicFailure(p.baseUrl);
      try {
        await anthropicClient(p).models.list({}, { signal });
      } catch (error) {
        return failed(failure(error), where, timeoutMs);
      }
    } else {
      const [{ openaiClient, OPENAI_DEFAULT_URL }, { openaiFailure }] = await Promise.all([
        import("../core/providers/openai/client.ts"),
        import("../core/providers/openai/errors.ts"),
      ]);
      where ||= OPENAI_DEFAULT_URL;
      failure = openaiFailure(where, p);
      try {
        await openaiClient(p).models.list({ signal });
      } catch (error) {
        return failed(failure(error), where, timeoutMs);
      }
    }
  } catch (error) {
    return {
      ok: false,
      message: `cannot check ${where || p.id}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  return { ok: true, message: `${where} answers` };
}

function failed(f: Failure, where: string, timeoutMs: number): Reach {
  switch (f.kind) {
    case "cancelled":
      return {
        ok: false,
        message: `${where} gave no answer within ${timeoutMs / 1000}s; is the server running, and is the URL right?`,
      };
    case "connection":
      return { ok: false, message: `${f.message}; is the server running, and is the URL right?` };
    case "api":
      if (f.status === 401 || f.status === 403)
        return { ok: false, message: `${where} refused the key (HTTP ${f.status}); check the provider's API key` };
      return { ok: false, message: `${where} answered HTTP ${f.status ?? "?"}: ${f.message}` };
    case "other":
      return { ok: false, message: `${where}: ${f.message}` };
  }
}
