/**
 * With no provider configured, a client still initializes, is offered the ways to configure one
 * as auth methods, and is told exactly what to set; choosing a method re-reads the config file.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectInProcess, newSession } from "../support/acp-session.ts";
import { sandbox } from "../support/workspace.ts";

const errorOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    return error as { code: number; message: string; data?: unknown };
  }
  throw new Error("expected the request to fail");
};

async function initialize(env: Record<string, string>) {
  const c = await connectInProcess(env);
  const init = await c.ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
  });
  return { c, init };
}

describe("no provider configured", () => {
  test("initialize succeeds and offers the ways to configure one as auth methods", async () => {
    const box = sandbox();
    const { c, init } = await initialize({ ...box.env, VERBATIM_MODEL: "" });
    try {
      expect(init.authMethods?.map((m) => m.id)).toEqual(["config-file", "anthropic", "openai", "openai-compatible"]);
      expect(init.authMethods?.find((m) => m.id === "anthropic")?.description).toContain("ANTHROPIC_API_KEY");
    } finally {
      await c.close();
    }
  });

  test("session/new is -32000 with exactly what to set", async () => {
    const box = sandbox();
    const c = await connectInProcess({ ...box.env, VERBATIM_MODEL: "anthropic/claude-opus-4-7" });
    try {
      const error = await errorOf(newSession(c.ctx, box.workspace));
      expect(error.code).toBe(-32000);
      expect(error.message).toContain(
        "VERBATIM_MODEL is anthropic/claude-opus-4-7, but no Anthropic API key is set. Set ANTHROPIC_API_KEY.",
      );
      expect(error.data).toMatchObject({ reason: "no_provider" });
    } finally {
      await c.close();
    }
  });

  test("authenticate re-reads the config file; once it lists a provider, sessions start with its models", async () => {
    const box = sandbox();
    const c = await connectInProcess({ ...box.env, VERBATIM_MODEL: "" });
    try {
      expect((await errorOf(c.ctx.request(acp.methods.agent.authenticate, { methodId: "config-file" }))).code).toBe(
        -32000,
      );
      mkdirSync(join(box.configHome, "verbatim"));
      writeFileSync(
        join(box.configHome, "verbatim", "config.json"),
        JSON.stringify({
          providers: {
            ollama: {
              type: "openai-chat",
              baseUrl: "http://127.0.0.1:11434/v1",
              models: { "qwen3:8b": { contextWindow: 40960 } },
            },
          },
        }),
      );
      expect(await c.ctx.request(acp.methods.agent.authenticate, { methodId: "config-file" })).toEqual({});
      const session = await newSession(c.ctx, box.workspace);
      const model = session.configOptions?.find((o) => o.id === "model");
      expect(model).toMatchObject({
        currentValue: "ollama/qwen3:8b",
        options: [{ value: "ollama/qwen3:8b", name: "qwen3:8b (ollama)" }],
      });
    } finally {
      await c.close();
    }
  });

  test("an auth method that was not offered is invalid params", async () => {
    const box = sandbox();
    const c = await connectInProcess({ ...box.env, VERBATIM_MODEL: "" });
    try {
      const error = await errorOf(c.ctx.request(acp.methods.agent.authenticate, { methodId: "github" }));
      expect(error.code).toBe(-32602);
    } finally {
      await c.close();
    }
  });
});

describe("a provider configured", () => {
  test("no auth methods are offered, and the model option lists the provider's models", async () => {
    const box = sandbox();
    const { c, init } = await initialize({ ...box.env, VERBATIM_MODEL: "", ANTHROPIC_API_KEY: "sk-ant-test" });
    try {
      expect(init.authMethods).toEqual([]);
      const session = await newSession(c.ctx, box.workspace);
      const model = session.configOptions?.find((o) => o.id === "model");
      expect(model?.type === "select" ? model.options.map((o) => ("value" in o ? o.value : "")) : []).toEqual([
        "anthropic/claude-sonnet-4-6",
        "anthropic/claude-opus-4-7",
        "anthropic/claude-haiku-4-5",
      ]);
    } finally {
      await c.close();
    }
  });
});
