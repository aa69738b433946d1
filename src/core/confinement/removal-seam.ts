/**
 * A seam in a removal, for tests only: called at the exact moments another process could swap
 * what a removal is about to use (the folder, the entry), so that a test makes the swap there
 * instead of racing for it. Unset, it costs one property read.
 */
export type RemovalStage = "parent" | "unlink";

export const removalSeam: { at?: (stage: RemovalStage, path: string) => void } = {};
