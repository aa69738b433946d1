import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { permissionRuleAdded } from "./permissions.ts";

/**
 * The session was imported from a file (`verbatim import`): the records before this one are the
 * file's, written as it said (its history), and this record says what the session may do from
 * now on. An export is a file from elsewhere, so what it allowed there (its "always" rules, its
 * directory grants, its additional directories) holds here only as listed below: nothing, unless
 * the user kept them (`--keep-permissions`). Shows nothing to a client; the model never sees it.
 */
export const sessionImported = lazySchema(() =>
  z.object({
    kind: z.literal("session_imported"),
    /** The extra roots the session has from now on (instead of those its start recorded). */
    additionalDirectories: z.array(z.string()),
    /** The "always" rules that hold from now on (instead of those recorded before). */
    rules: z.array(permissionRuleAdded.omit({ kind: true })),
    /** The directories file tools may use from now on (instead of those granted before). */
    grantedDirectories: z.array(z.string()),
    /**
     * Where the file says the session worked (its last recorded directory): its origin, shown by
     * `show`, never a root here (absent in imports recorded before it was kept).
     */
    fromCwd: z.string().optional(),
  }),
);

export const importFacts = [sessionImported] as const;
