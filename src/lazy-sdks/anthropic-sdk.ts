/**
 * The parts of the Anthropic SDK the adapter uses. The build (`scripts/build.ts`) bundles this
 * module apart, loaded when a provider first streams; named exports only, so that it reads the
 * same from source and across the bundle boundary.
 */
export { default as Anthropic, APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
