/**
 * A Markdown file's YAML front matter (a `---` block at its top), parsed with the `yaml` package,
 * which is loaded only when a file has such a block.
 */

export type FrontMatter =
  | { ok: true; fields: Record<string, unknown>; body: string }
  | { ok: false; error: string; body: string };

const BLOCK = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The fields of the front matter (none without a block) and the text after it; a block that is not a YAML mapping is an error. */
export async function frontMatter(text: string): Promise<FrontMatter> {
  const match = BLOCK.exec(text);
  if (!match) return { ok: true, fields: {}, body: text };
  const body = text.slice(match[0].length);
  const { parse } = await import("../../lazy-sdks/yaml.ts");
  try {
    const value: unknown = parse(match[1] ?? "");
    if (value === null || value === undefined) return { ok: true, fields: {}, body };
    if (typeof value !== "object" || Array.isArray(value))
      return { ok: false, error: "its front matter is not a set of `key: value` fields", body };
    return { ok: true, fields: value as Record<string, unknown>, body };
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { ok: false, error: `its front matter is not valid YAML (${message})`, body };
  }
}

/** A field as text: a string as is, a number or boolean written out, anything else undefined. */
export function textField(fields: Record<string, unknown>, key: string): string | undefined {
  const value = fields[key];
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** A field as a list of strings: a YAML list, or a comma-separated string (`tools: Read, Grep`). */
export function listField(fields: Record<string, unknown>, key: string): string[] | undefined {
  const value = fields[key];
  if (typeof value === "string")
    return value
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return undefined;
}

/** A field as a boolean (`true`/`false`, also as strings), or undefined. */
export function booleanField(fields: Record<string, unknown>, key: string): boolean | undefined {
  const value = fields[key];
  if (typeof value === "boolean") return value;
  if (value === "true") return true;
  if (value === "false") return false;
  return undefined;
}
