/**
 * node:fs/promises, imported when a tool first needs it: the module costs milliseconds to load,
 * and loading the engine (to load a session, say) runs no tool.
 */
export const fsAsync = (): Promise<typeof import("node:fs/promises")> => import("node:fs/promises");
