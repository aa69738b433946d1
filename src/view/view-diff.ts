/** Field-by-field comparison of two view models (or any JSON values). */

/** The paths where `a` and `b` differ, with both values; empty when they are equal. */
export function diffValues(a: unknown, b: unknown, path = "$", out: string[] = [], limit = 50): string[] {
  if (out.length >= limit) return out;
  if (Object.is(a, b)) return out;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") {
    out.push(`${path}: ${short(a)} ≠ ${short(b)}`);
    return out;
  }
  if (Array.isArray(a) !== Array.isArray(b)) {
    out.push(`${path}: ${short(a)} ≠ ${short(b)}`);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}.length: ${a.length} ≠ ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) diffValues(a[i], b[i], `${path}[${i}]`, out, limit);
    return out;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
    diffValues(ra[key], rb[key], `${path}.${key}`, out, limit);
  }
  return out;
}

function short(value: unknown): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
