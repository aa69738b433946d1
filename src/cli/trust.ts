/** `verbatim trust DIR`: adds DIR to the trusted folders, so project hooks in it run. */
import { trustFolder } from "../core/hooks/trust.ts";

export function trustCommand(dir: string): number {
  try {
    const { folder, configPath, added } = trustFolder(process.env, dir);
    process.stdout.write(
      added
        ? `Trusted ${folder}: project hooks there (and in folders inside it) now run. Recorded in ${configPath}.\n`
        : `${folder} is already trusted (${configPath}).\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`verbatim trust: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
