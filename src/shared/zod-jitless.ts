/**
 * zod as verbatim uses it, for every schema built after this module runs (zod reads these
 * settings when a schema is built). Import this first, before the ACP SDK builds its schemas.
 *
 * No per-schema code generation: verbatim parses each of its schemas a few times at most (a
 * request's params, a config file, a tool's input, a hook's output), and generating code on a
 * schema's first parse costs more than it saves. The exception, journal records, decodes tens of
 * thousands of a kind, and compiles those schemas itself (see journal/codec.ts).
 *
 * No cycle support: zod's default memoizer lets a container parse an input that refers to itself,
 * and to know whether it must, it walks the schema's whole subtree on its first parse (building
 * every schema the ACP SDK builds lazily: milliseconds at a cold start, for `initialize` and a
 * load alone). Everything verbatim parses comes from JSON (the wire, files, the journal), which
 * cannot refer to itself.
 */
import { z } from "zod";

const noCycles: NonNullable<Parameters<typeof z.config>[0]>["memoizer"] = {
  attach: () => {},
  guard: () => {},
  alloc: (_schema, _payload, empty) => empty,
};

z.config({ jitless: true, memoizer: noCycles });
