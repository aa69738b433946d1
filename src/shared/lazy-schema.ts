/**
 * A schema built the first time it is used. A zod schema costs microseconds to build (zod's
 * classic API gives each one its own methods), and a module of hundreds of them, built when the
 * module is evaluated, costs tens of milliseconds at start whether one is used or none, as the
 * ACP SDK's generated schemas did (the build wraps each of them: scripts/lazy-sdk-schemas.ts).
 *
 * What it returns stands for the schema everywhere: every read, call, `in`, `instanceof` and key
 * listing is the built schema's. `make` runs at the first of them and never again once it has
 * returned (a `make` that throws is tried again at the next use); never when nothing touches it.
 */
/** The key under which a lazy schema gives its built schema (`builtSchema`). */
const BUILT = Symbol("built schema");

export function lazySchema<T extends object>(make: () => T): T {
  let built: T | undefined;
  const schema = (): T => {
    built ??= make();
    return built;
  };
  // The target stays an empty, extensible object: a trap may then report any property, as long
  // as none is reported as non-configurable (a Proxy invariant), hence the descriptor's copy.
  return new Proxy({} as T, {
    get: (_, key) => (key === BUILT ? schema() : Reflect.get(schema(), key)),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}

/**
 * The schema `schema` stands for: built, when `lazySchema` made it (each use of the stand-in goes
 * through its traps, a cost on a path that parses every record); `schema` itself otherwise.
 */
export function builtSchema<T extends object>(schema: T): T {
  return (schema as T & { [BUILT]?: T })[BUILT] ?? schema;
}
