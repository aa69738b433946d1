/**
 * A fork shows its source's view but for its own title (the source's, saying it is a fork) and
 * the time that title was recorded: what is left once those two are set back is the source's.
 */
import { expect } from "bun:test";
import type { ViewModel } from "../../src/view/view-model.ts";

export function asItsSource(fork: ViewModel, source: ViewModel): ViewModel {
  expect(fork.title).toBe(`${source.title} (fork)`);
  return { ...fork, title: source.title, updatedAt: source.updatedAt };
}
