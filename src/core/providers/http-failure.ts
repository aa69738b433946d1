/**
 * A provider's HTTP failure as the user should read it. A wrong base URL usually answers with a
 * web page (a proxy's, a server's 404): its HTML is no message, so it is cut to its title; long
 * bodies are cut; and where the URL's shape is the likely cause, the message says so.
 */
import type { ProviderKind } from "../config/settings-schema.ts";
import { WIRES } from "./wire-table.ts";

/** Longer provider messages are cut here: they are shown, recorded, and repeated in notices. */
const MAX_FAILURE_CHARS = 400;

const HTML_START = /<!doctype html|<html[\s>]/i;

/** `message` with an HTML page replaced by its title, and cut to MAX_FAILURE_CHARS. */
export function readableFailure(message: string): { text: string; html: boolean } {
  const start = message.search(HTML_START);
  if (start >= 0) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(message)?.[1]?.replace(/\s+/g, " ").trim();
    const before = message.slice(0, start).trim();
    return {
      text: `${before}${before ? " " : ""}(a web page${title ? ` titled "${title.slice(0, 120)}"` : ""}, not the provider's API)`,
      html: true,
    };
  }
  return {
    text: message.length > MAX_FAILURE_CHARS ? `${message.slice(0, MAX_FAILURE_CHARS)}…` : message,
    html: false,
  };
}

/**
 * What is likely wrong with the base URL, given how the server answered, or undefined. An
 * OpenAI-compatible server serves its API under /v1 (Ollama, vLLM, llama.cpp, LM Studio); the
 * Anthropic SDK adds /v1 itself.
 */
export function baseUrlHint(
  kind: ProviderKind,
  baseUrl: string | undefined,
  status: number | undefined,
  html: boolean,
): string | undefined {
  if (!baseUrl) return undefined;
  const notTheApi = html || status === 404 || status === 405 || status === 501;
  if (!notTheApi) return undefined;
  let path: string;
  try {
    path = new URL(baseUrl).pathname.replace(/\/+$/, "");
  } catch {
    return `the base URL "${baseUrl}" is not a URL`;
  }
  if (!WIRES[kind].versionInBaseUrl) {
    return /\/v1$/.test(path)
      ? `the base URL ${baseUrl} ends with /v1, which the ${WIRES[kind].name} API adds itself: leave it out`
      : undefined;
  }
  if (!/\/v\d+$/.test(path)) {
    return `the base URL ${baseUrl} may be missing /v1: OpenAI-compatible servers serve their API under it (for Ollama: http://127.0.0.1:11434/v1)`;
  }
  return `check the base URL ${baseUrl}: the server there does not serve the API it names`;
}
