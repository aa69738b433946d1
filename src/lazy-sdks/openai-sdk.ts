/**
 * The parts of the OpenAI SDK the adapters use. The build (`scripts/build.ts`) bundles this
 * module apart, loaded when a provider first streams; named exports only, so that it reads the
 * same from source and across the bundle boundary.
 */
export { default as OpenAI, APIConnectionError, APIError, APIUserAbortError } from "openai";
