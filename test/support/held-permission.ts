/**
 * A permission policy that holds its answer until the test lets it go: a turn stays in the middle
 * of a step (its call waiting to be allowed) for as long as the test needs, with no timing.
 */
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { choose, type PermissionPolicy } from "../../src/client/view-client.ts";

export type HeldPermission = {
  policy: PermissionPolicy;
  /** Resolves when the next question arrives (each `release` arms it again). */
  asked(): Promise<RequestPermissionRequest>;
  /** Answers the open question with the first option of `kind` (or the option with `optionId`). */
  release(answer?: { kind?: Parameters<typeof choose>[0]; optionId?: string }): void;
};

export function heldPermission(): HeldPermission {
  let asked = Promise.withResolvers<RequestPermissionRequest>();
  let answer = Promise.withResolvers<{ kind?: Parameters<typeof choose>[0]; optionId?: string }>();
  return {
    policy: async (request) => {
      asked.resolve(request);
      const given = await answer.promise;
      if (given.optionId !== undefined) return { outcome: { outcome: "selected", optionId: given.optionId } };
      return choose(given.kind ?? "allow_once")(request);
    },
    asked: () => asked.promise,
    release: (given = {}) => {
      const current = answer;
      asked = Promise.withResolvers();
      answer = Promise.withResolvers();
      current.resolve(given);
    },
  };
}
