/** The extension methods the app forwards to the engine, with the schemas of their params (src/protocol/extensions.ts). */
import { EXTENSION_METHODS } from "../protocol/extensions.ts";

export type ExtensionRequest = { method: string; params: { parse(value: unknown): unknown } };

export const EXTENSION_REQUESTS: readonly ExtensionRequest[] = Object.entries(EXTENSION_METHODS).map(
  ([method, { params }]) => ({ method, params }),
);
