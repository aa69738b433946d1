/**
 * What the user is told about their commands, skills and agents: the files not read (a link out
 * of their roots, bad front matter, ...), each name clash (which file was kept, which passed
 * over), and the project skills a workspace not trusted does not offer.
 */
import type { FactOf } from "../../journal/facts/index.ts";
import type { Clash } from "../commands/command-files.ts";
import { type SkippedFile, skippedNotice } from "../confinement/own-files.ts";

type Notice = Omit<FactOf<"notice_shown">, "kind" | "messageId">;

export function setupNotices(p: { skipped: SkippedFile[]; clashes: Clash[]; untrusted: string[] }): Notice[] {
  const notices: Notice[] = [];
  const skipped = skippedNotice(p.skipped);
  if (skipped) notices.push(skipped);
  for (const clash of p.clashes)
    notices.push({
      severity: "warning",
      title: `Two definitions of ${clash.label}: ${clash.passed} is not used`,
      description: `${clash.kept} takes precedence over ${clash.passed}.`,
    });
  for (const dir of p.untrusted)
    notices.push({
      severity: "info",
      title: `The project's skills in ${dir} are not offered: this workspace is not trusted`,
      description: "`verbatim trust DIR` trusts a workspace; its project skills are offered from the next session.",
    });
  return notices;
}
