/**
 * The table of provider wires: a row for every kind the settings accept, each row's models URL
 * the one its SDK really asks, and one probe whose failures `doctor` and `setup` say in the same
 * words.
 */
import { describe, expect, test } from "bun:test";
import { checkProvider } from "../../src/cli/setup/check.ts";
import { reachProvider } from "../../src/cli/provider-reach.ts";
import { providerKinds, type ProviderKind } from "../../src/core/config/settings-schema.ts";
import { listModels } from "../../src/core/providers/model-list.ts";
import { resolveProviders } from "../../src/core/providers/provider-config.ts";
import { modelsUrl, WIRES } from "../../src/core/providers/wire-table.ts";
import { fixtureServer } from "../support/fixture-server.ts";

const modelsAnswer = { status: 200, json: { object: "list", data: [{ id: "m1", object: "model" }] } };

/** The base URL a user gives for `kind` on the fixture server: with /v1 where the wire expects it. */
const baseUrlOn = (origin: string, kind: ProviderKind) => (WIRES[kind].versionInBaseUrl ? `${origin}/v1` : origin);

describe("the wire table", () => {
  test("has one row for every provider kind the settings accept, and no other", () => {
    expect(Object.keys(WIRES).sort()).toEqual([...providerKinds].sort());
  });

  test.each([...providerKinds])("%s: the models URL is the one its SDK asks", async (kind) => {
    const server = fixtureServer();
    server.enqueue(modelsAnswer);
    const baseUrl = baseUrlOn(server.origin, kind);
    const answer = await listModels({ kind, baseUrl, headers: {} }, 5000);
    expect(answer).toEqual({ ok: true, models: ["m1"] });
    expect(server.requests[0]?.path).toBe(new URL(modelsUrl(kind, baseUrl)).pathname);
  });
});

/** What doctor says of a configured `openai-chat` provider at `baseUrl`, and what setup says of the same server. */
async function bothSay(baseUrl: string) {
  const env = { VERBATIM_MODEL: "openai-chat/m1", OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "sk-test" };
  const provider = resolveProviders({}, env, "/nonexistent/config.json").providers[0];
  if (!provider) throw new Error("the environment configures no provider");
  const doctor = await reachProvider(provider);
  const setup = await checkProvider("openai-chat", baseUrl, "sk-test", 5000);
  return { doctor, setup };
}

describe("doctor and setup say a probe's failure in the same words", () => {
  test("a refused key", async () => {
    const server = fixtureServer();
    const refused = { status: 401, json: { error: { message: "Incorrect API key", type: "invalid_request_error" } } };
    server.enqueue(refused, refused);
    const { doctor, setup } = await bothSay(`${server.origin}/v1`);
    expect(doctor).toEqual({
      ok: false,
      message: `${server.origin}/v1/models refused the key (HTTP 401): check the API key.`,
    });
    expect(setup).toEqual({ ok: false, message: doctor.message });
  });

  test("a web page where the API should be", async () => {
    const server = fixtureServer();
    const page = { status: 404, html: "<html><head><title>Not Found</title></head></html>" };
    server.enqueue(page, page);
    const { doctor, setup } = await bothSay(server.origin);
    expect(doctor.ok).toBe(false);
    expect(doctor.message).toContain(`the base URL ${server.origin} may be missing /v1`);
    expect(setup).toEqual({ ok: false, message: doctor.message });
  });

  test("a server that cannot be reached", async () => {
    const server = fixtureServer();
    const url = `${server.origin}/v1`;
    server.stop();
    const { doctor, setup } = await bothSay(url);
    expect(doctor.ok).toBe(false);
    expect(doctor.message).toStartWith(`could not reach ${url}/models`);
    expect(setup).toEqual({ ok: false, message: doctor.message });
  });
});
