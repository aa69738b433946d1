/**
 * A build step for the ACP SDK's generated schema modules (`zod.gen.js`, `guards.gen.js`): each
 * top-level `const zName = <expression>;` becomes `lazySchema(() => <expression>)`
 * (src/shared/lazy-schema.ts), so evaluating the SDK builds none of its hundreds of schemas, and a
 * request builds only the few that check it. Measured: the SDK's evaluation went from 26-37 ms to
 * about 1 ms (docs/performance.md). The modules are generated (@hey-api/openapi-ts and the SDK's
 * own generator): one statement per schema, each at the start of a line, each ending in `;` at
 * the end of a line before the next statement or comment. A module that does not look like that
 * fails the build rather than being half rewritten.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const HELPER = join(import.meta.dir, "..", "src", "shared", "lazy-schema.ts");

/** A schema's statement: `const zName = ` (exported or not) at the start of a line. */
const STATEMENT = /^(export )?const (z\w+) = /gm;
/** Where a statement's expression ends: `;` closing a line before the next comment, or the module's end. */
const END = /;[ \t]*\n(?=\/\*\*|\/\/|\s*$)/;

/** The module's text with each schema built lazily; throws where a statement's end is not found. */
export function lazifySchemaModule(text: string, helper = HELPER): string {
  const statements = [...text.matchAll(STATEMENT)];
  const first = statements[0];
  if (!first) return text;
  let out = `import { lazySchema as $lazySchema } from ${JSON.stringify(helper)};\n${text.slice(0, first.index)}`;
  statements.forEach((statement, i) => {
    const from = statement.index + statement[0].length;
    const to = statements[i + 1]?.index ?? text.length;
    const rest = text.slice(from, to);
    const end = rest.search(END);
    if (end < 0) throw new Error(`lazy-sdk-schemas: no end found for the schema ${statement[2]}`);
    out += `${statement[1] ?? ""}const ${statement[2]} = /* @__PURE__ */ $lazySchema(() => (${rest.slice(0, end)}))${rest.slice(end)}`;
  });
  return out;
}

/** The Bun build plugin: the SDK's generated schema modules, built lazily. */
export const lazySdkSchemas: Bun.BunPlugin = {
  name: "lazy-sdk-schemas",
  setup(builder) {
    builder.onLoad({ filter: /@agentclientprotocol\/sdk\/dist\/.*\/(zod|guards)\.gen\.js$/ }, (args) => ({
      contents: lazifySchemaModule(readFileSync(args.path, "utf8")),
      loader: "js",
    }));
  },
};
