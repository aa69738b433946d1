/**
 * zod without per-schema code generation, for every schema built after this module runs (zod
 * reads the setting when a schema is built). verbatim parses each of its schemas a few times at
 * most (a request's params, a config file, a tool's input, a hook's output): generating code on
 * a schema's first parse costs more than it saves. The exception, journal records, decodes tens
 * of thousands of a kind, and compiles those schemas itself (see journal/codec.ts). Import this
 * first, before the ACP SDK builds its schemas.
 */
import { z } from "zod";

z.config({ jitless: true });
