/**
 * A client's answer to a form (ACP elicitation), checked against the form that was asked before
 * anything uses it: only the fields the form has, each of its type, a choice only among the
 * form's options. What passes is the one value the card shows and the tool reads; free text is
 * trimmed and empty fields dropped, so that both say the same. An answer that does not fit counts
 * as not answered: the client is not trusted to keep to the form it was given.
 */

/** A field of a form's schema, as verbatim asks them (ACP's ElicitationSchema properties). */
type Field = {
  type?: unknown;
  title?: unknown;
  enum?: unknown;
  oneOf?: unknown;
  items?: { enum?: unknown; anyOf?: unknown };
  minLength?: unknown;
  maxLength?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  minItems?: unknown;
  maxItems?: unknown;
};

export type CheckedAnswer = { ok: true; content: Record<string, unknown> } | { ok: false; reason: string };

/** Checks `content` against `requestedSchema`; `reason` names the first field that does not fit (never its value). */
export function checkFormAnswer(requestedSchema: Record<string, unknown>, content: unknown): CheckedAnswer {
  if (!isRecord(content)) return { ok: false, reason: "the answer is not a set of fields" };
  const fields = isRecord(requestedSchema.properties) ? requestedSchema.properties : {};
  const checked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(content)) {
    const field = fields[key];
    if (!Object.hasOwn(fields, key) || !isRecord(field))
      return { ok: false, reason: `it has a field the form does not` };
    const result = checkField(field as Field, value);
    const name = typeof field.title === "string" ? field.title : key;
    if (typeof result === "string") return { ok: false, reason: `${name}: ${result}` };
    if (result.keep) checked[key] = result.value;
  }
  const required = Array.isArray(requestedSchema.required) ? requestedSchema.required : [];
  for (const key of required) {
    if (typeof key === "string" && !Object.hasOwn(checked, key)) {
      const field = fields[key];
      const name = isRecord(field) && typeof field.title === "string" ? field.title : key;
      return { ok: false, reason: `${name}: a required field is empty` };
    }
  }
  return { ok: true, content: checked };
}

/** The field's value as kept (`keep: false` for an empty one), or why it does not fit. */
function checkField(field: Field, value: unknown): { keep: boolean; value?: unknown } | string {
  const options = optionsOf(field.oneOf, field.enum);
  switch (field.type) {
    case "string": {
      if (typeof value !== "string") return "not a text";
      if (options) {
        if (value === "") return { keep: false };
        return options.has(value) ? { keep: true, value } : "a choice that is not one of its options";
      }
      const text = value.trim();
      if (typeof field.minLength === "number" && text.length < field.minLength && text !== "") return "too short";
      if (typeof field.maxLength === "number" && text.length > field.maxLength) return "too long";
      return text === "" ? { keep: false } : { keep: true, value: text };
    }
    case "array": {
      const choices = optionsOf(field.items?.anyOf, field.items?.enum);
      if (!Array.isArray(value) || !choices) return "not a list of its options";
      if (value.some((v) => typeof v !== "string" || !choices.has(v))) return "a choice that is not one of its options";
      if (new Set(value).size !== value.length) return "the same choice twice";
      if (typeof field.minItems === "number" && value.length < field.minItems && value.length > 0)
        return "too few choices";
      if (typeof field.maxItems === "number" && value.length > field.maxItems) return "too many choices";
      return value.length === 0 ? { keep: false } : { keep: true, value };
    }
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "not a number";
      if (field.type === "integer" && !Number.isInteger(value)) return "not a whole number";
      if (typeof field.minimum === "number" && value < field.minimum) return "below its minimum";
      if (typeof field.maximum === "number" && value > field.maximum) return "above its maximum";
      return { keep: true, value };
    }
    case "boolean":
      return typeof value === "boolean" ? { keep: true, value } : "not yes or no";
    default:
      return "a field of a kind verbatim does not ask";
  }
}

/** The values a field allows (`oneOf`/`anyOf` consts, or `enum`), or undefined when it lists none. */
function optionsOf(consts: unknown, values: unknown): Set<string> | undefined {
  if (Array.isArray(consts)) {
    return new Set(consts.flatMap((c) => (isRecord(c) && typeof c.const === "string" ? [c.const] : [])));
  }
  if (Array.isArray(values)) return new Set(values.filter((v): v is string => typeof v === "string"));
  return undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
