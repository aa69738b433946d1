/**
 * An object's keys whose type admits `undefined` become optional (and lose `undefined`); the
 * others stay as they are. What `defined` returns, so that the result is accepted where an
 * optional field must be absent rather than `undefined` (`exactOptionalPropertyTypes`).
 */
export type Defined<T extends object> = {
  [K in keyof T as undefined extends T[K] ? never : K]: T[K];
} & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/**
 * A copy of `fields` without the keys whose value is `undefined`, in the same order. It never
 * drops `null`, `0`, `""` or `false`. For writing `{ a, ...defined({ b, c }) }` where an optional
 * field must be left out rather than present as `undefined` (a fact, a wire message, a row).
 */
export function defined<T extends object>(fields: T): Defined<T> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) {
    const value = (fields as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out as Defined<T>;
}
