/**
 * Validation of a whole model step before any effect. Duplicate provider call ids within the
 * step, or one colliding with a call still open, reject the step: nothing is accepted and no
 * tool runs. A provider id reused after its call completed is fine (it gets a new public id).
 */
import type { AcceptedCall } from "../../journal/facts/index.ts";
import { mintId } from "../ids.ts";
import type { RawCall } from "./stream-step.ts";

export type Validation = { ok: true; calls: AcceptedCall[] } | { ok: false; error: string };

export function validateStep(calls: RawCall[], openProviderIds: ReadonlySet<string>): Validation {
  const seen = new Set<string>();
  for (const call of calls) {
    if (!call.providerCallId) return { ok: false, error: `the model returned a ${call.name} call without an id` };
    if (seen.has(call.providerCallId)) {
      return {
        ok: false,
        error: `the model returned two tool calls with the same id (${call.providerCallId}); none of them was run`,
      };
    }
    if (openProviderIds.has(call.providerCallId)) {
      return {
        ok: false,
        error: `the model reused the id of a call that is still open (${call.providerCallId}); none of the calls was run`,
      };
    }
    seen.add(call.providerCallId);
  }
  return {
    ok: true,
    calls: calls.map((call) => ({
      toolCallId: mintId("call"),
      providerCallId: call.providerCallId,
      name: call.name,
      input: parseArguments(call.json),
    })),
  };
}

/** The call's arguments: parsed JSON, or the raw text when it is not valid JSON. */
function parseArguments(json: string): unknown {
  if (json.trim() === "") return {};
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
