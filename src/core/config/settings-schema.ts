/**
 * The schema of verbatim's config files (`$XDG_CONFIG_HOME/verbatim/config.json` and a
 * project's `.verbatim/config.json`). Every object is strict: an unknown key is an error that
 * names the keys allowed there. The file is a set of sections; a feature adds its own section to
 * `settingsSections` (one key, one schema) and reads it from the loaded settings.
 */
import { z } from "zod";
import { THOUGHT_LEVELS } from "./thought-levels.ts";

/** A strict object whose unknown-key error lists the keys it accepts. */
export function strictSection<S extends z.ZodRawShape>(shape: S) {
  const allowed = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")} (allowed here: ${allowed})`
        : undefined,
  });
}

export const providerKinds = ["anthropic", "openai", "openai-chat"] as const;
export type ProviderKind = (typeof providerKinds)[number];
export const isProviderKind = (v: string): v is ProviderKind => (providerKinds as readonly string[]).includes(v);

/** How a model is asked to think, per provider kind (see docs/providers.md). */
export const thinkingStyles = ["adaptive", "budget", "effort", "none"] as const;
const stylesByKind: Record<ProviderKind, readonly string[]> = {
  anthropic: ["adaptive", "budget", "none"],
  openai: ["effort", "none"],
  "openai-chat": ["effort", "none"],
};

const perMillion = z.number({ error: "expected a price in US dollars per million tokens (a number)" }).nonnegative();

export const priceSchema = strictSection({
  input: perMillion,
  output: perMillion,
  cacheRead: perMillion.optional(),
  cacheWrite: perMillion.optional(),
});
export type Price = z.infer<typeof priceSchema>;

export const modelSettingsSchema = strictSection({
  /** The name shown in the model picker. */
  name: z.string().min(1).optional(),
  contextWindow: z.int({ error: "expected the context window in tokens (a whole number)" }).positive().optional(),
  maxOutputTokens: z.int({ error: "expected a token count (a whole number)" }).positive().optional(),
  thinking: z
    .enum(thinkingStyles, { error: `expected one of ${thinkingStyles.map((s) => `"${s}"`).join(", ")}` })
    .optional(),
  price: priceSchema.optional(),
});
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

const PROVIDER_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const providerSettingsSchema = strictSection({
  /** The wire protocol; may be left out when the provider's name is one of the kinds. */
  type: z.enum(providerKinds, { error: `expected one of ${providerKinds.map((k) => `"${k}"`).join(", ")}` }).optional(),
  baseUrl: z
    .url({ protocol: /^https?$/, error: 'expected an http(s) URL such as "http://127.0.0.1:11434/v1"' })
    .optional(),
  apiKey: z.string().min(1).optional(),
  /** The environment variable holding the key (keeps the key itself out of the file). */
  apiKeyEnv: z.string().regex(ENV_NAME, { error: "expected an environment variable name" }).optional(),
  headers: z
    .record(z.string(), z.string(), { error: "expected an object of header names to string values" })
    .optional(),
  /** The models to offer, by the provider's model id. */
  models: z
    .record(z.string().min(1), modelSettingsSchema, { error: "expected an object of model ids to model settings" })
    .optional(),
});
export type ProviderSettings = z.infer<typeof providerSettingsSchema>;

/** A provider's kind: its `type`, or its name when the name is a kind. */
export const kindOf = (name: string, p: ProviderSettings): ProviderKind | undefined =>
  p.type ?? (isProviderKind(name) ? name : undefined);

export const providersSchema = z.record(
  z.string().regex(PROVIDER_NAME, { error: "provider names are lowercase letters, digits, '.', '_' and '-'" }),
  providerSettingsSchema,
  { error: "expected an object of provider names to provider settings" },
);

/**
 * Checks across keys, made on the merged settings (a provider's `type` may be in the user file
 * and its models in the project file).
 */
export function checkProviders(providers: Record<string, ProviderSettings>, ctx: z.RefinementCtx): void {
  for (const [name, p] of Object.entries(providers)) {
    if (name === "scripted") {
      ctx.addIssue({
        code: "custom",
        path: ["providers", name],
        message: '"scripted" is the built-in offline model and cannot be configured',
      });
      continue;
    }
    const kind = kindOf(name, p);
    if (!kind) {
      ctx.addIssue({
        code: "custom",
        path: ["providers", name, "type"],
        message: `a provider named "${name}" needs "type": one of ${providerKinds.map((k) => `"${k}"`).join(", ")}`,
      });
      continue;
    }
    for (const [model, m] of Object.entries(p.models ?? {})) {
      if (m.thinking && !stylesByKind[kind].includes(m.thinking)) {
        ctx.addIssue({
          code: "custom",
          path: ["providers", name, "models", model, "thinking"],
          message: `"${m.thinking}" does not apply to ${kind} models; expected one of ${stylesByKind[kind].map((s) => `"${s}"`).join(", ")}`,
        });
      }
    }
  }
}

const MODEL_REF = /^[^/]+\/.+$/;

const modeIds = ["default", "acceptEdits", "plan", "bypassPermissions"] as const;
const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(", ");

/** The sections of a config file. Add a feature's section here. */
export const settingsSections = {
  $schema: z.string().optional(),
  /** The model new sessions use, as `<provider>/<model>`. */
  model: z
    .string()
    .regex(MODEL_REF, { error: 'expected "<provider>/<model>", e.g. "anthropic/claude-sonnet-4-6"' })
    .optional(),
  /** The mode and thinking level new sessions start in. */
  defaultMode: z.enum(modeIds, { error: `expected one of ${quoted(modeIds)}` }).optional(),
  thoughtLevel: z.enum(THOUGHT_LEVELS, { error: `expected one of ${quoted(THOUGHT_LEVELS)}` }).optional(),
  providers: providersSchema.optional(),
  /**
   * The share of a model's context window (in percent) at which a request is made smaller first:
   * old tool output pruned, then the conversation compacted. VERBATIM_AUTOCOMPACT_PCT (or Claude
   * Code's CLAUDE_AUTOCOMPACT_PCT_OVERRIDE) wins over it; 80 when none is set.
   */
  autoCompactPct: z
    .number({ error: "expected a percentage of the context window (a number above 0, at most 100)" })
    .positive({ error: "expected a percentage of the context window (a number above 0, at most 100)" })
    .max(100, { error: "expected a percentage of the context window (a number above 0, at most 100)" })
    .optional(),
  /**
   * Hooks in Claude Code's format: event name to matcher groups. src/core/hooks reads each entry
   * on its own and reports a bad one without hiding the others, so only the outline is checked here.
   */
  hooks: z
    .record(z.string(), z.array(z.unknown(), { error: "expected a list of matcher groups ({matcher, hooks})" }), {
      error: "expected an object of hook event names to lists of matcher groups",
    })
    .optional(),
  /**
   * Permission rules in Claude Code's syntax, read with Claude Code's settings files at this
   * file's level (core/permissions/settings-rules.ts; docs/tools.md). A rule that does not parse is
   * reported there, not here, so the rest of the file still applies.
   */
  permissions: strictSection({
    allow: z.array(z.string(), { error: "expected a list of rules" }).optional(),
    ask: z.array(z.string(), { error: "expected a list of rules" }).optional(),
    deny: z.array(z.string(), { error: "expected a list of rules" }).optional(),
    additionalDirectories: z.array(z.string(), { error: "expected a list of directories" }).optional(),
    defaultMode: z.string().optional(),
  }).optional(),
  /** Folders whose project hooks and project provider settings are trusted. Read from the user file only. */
  trustedFolders: z.array(z.string().min(1), { error: "expected a list of folder paths" }).optional(),
  /**
   * Where the journal lives, when not in SQLite under VERBATIM_HOME: a `postgres://` URL
   * (docs/deployment.md). VERBATIM_JOURNAL wins over it. Read from the user file only.
   */
  journal: strictSection({
    url: z.string().regex(/^postgres(ql)?:\/\//i, { error: 'expected a "postgres://user@host:port/database" URL' }),
  }).optional(),
  /** The host's lifecycle command (busy / needs you / done). Read from the user file only. */
  notify: strictSection({ command: z.string().min(1, { error: "expected a command line" }) }).optional(),
};

/** One config file: every key and value checked, cross-key checks left to the merged settings. */
export const settingsSchema = strictSection(settingsSections);
export type Settings = z.infer<typeof settingsSchema>;

/** The merged settings, with the checks that need every file. */
export const mergedSettingsSchema = settingsSchema.superRefine((settings, ctx) =>
  checkProviders(settings.providers ?? {}, ctx),
);
