/**
 * Claude Code's own sandbox runtime (`@anthropic-ai/sandbox-runtime`, pinned): bubblewrap with a
 * seccomp filter and a filtering network proxy on Linux, Seatbelt on macOS. Loaded when a session's
 * first command runs, never on the start path. The build (`scripts/build.ts`) bundles this module
 * apart, its own zod 3, node-forge and commander included (they never reach the npm package's
 * dependencies).
 *
 * The runtime finds its seccomp helper (`apply-seccomp`) next to its own files, which bundling
 * moves; the helper is imported here as a file instead, so the build copies it beside this bundle
 * and the single-file binary embeds it, and its path is handed to the runtime (`seccomp.applyPath`).
 * Embedded in the binary, or beside the bundle without its executable bit, it is no file bubblewrap
 * can run: it is then written out once (0700 folder, 0700 file).
 */
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import applySeccompArm64 from "../../node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/arm64/apply-seccomp" with {
  type: "file",
};
import applySeccompX64 from "../../node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/x64/apply-seccomp" with {
  type: "file",
};

export { SandboxManager } from "@anthropic-ai/sandbox-runtime";
export type { SandboxRuntimeConfig } from "@anthropic-ai/sandbox-runtime";

/** As shell-parser.ts: relative in the built bundle (beside it), absolute from source or the binary. */
const located = (path: string): string => (isAbsolute(path) ? path : require.resolve(path));

/** The seccomp helper for this machine as a file bubblewrap can run, or undefined on another architecture. */
export async function applySeccompPath(): Promise<string | undefined> {
  const embedded = process.arch === "x64" ? applySeccompX64 : process.arch === "arm64" ? applySeccompArm64 : undefined;
  if (embedded === undefined) return undefined;
  const path = located(embedded);
  // Beside the bundle it is a file, but npm and the build may not keep its executable bit.
  if (!path.startsWith("/$bunfs/") && existsSync(path) && (statSync(path).mode & 0o100) !== 0) return path;
  const dir = join(tmpdir(), `verbatim-${process.getuid?.() ?? "user"}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Named by its size: a newer helper never runs an older one left behind.
  const out = join(dir, `apply-seccomp-${process.arch}-${statSync(path).size}`);
  if (!existsSync(out)) {
    writeFileSync(out, await Bun.file(path).bytes(), { mode: 0o700 });
    chmodSync(out, 0o700);
  }
  return out;
}
