/**
 * `verbatim doctor`'s look at the setup a user keeps for the workspace: the instruction files,
 * commands, skills and agents a session there would read, each file that would be skipped (with
 * why: bad front matter, a link out of its roots, ...) and each name clash.
 */
import { claudeMdExcludes } from "../core/instructions/excludes.ts";
import { commandFiles } from "../core/commands/command-files.ts";
import { isTrusted } from "../core/hooks/trust.ts";
import { instructionCandidates } from "../core/instructions/instruction-files.ts";
import { readInstructions } from "../core/instructions/read-instructions.ts";
import { agentFiles } from "../core/subagents/agent-files.ts";
/** A doctor check (doctor.ts's shape; declared here so the two modules do not import each other). */
type Check = { check: string; status: "ok" | "warn" | "fail"; message: string };

type Env = Record<string, string | undefined>;

export async function setupChecks(env: Env, cwd: string): Promise<Check[]> {
  const place = { cwd, roots: [cwd], env, trusted: isTrusted(env, cwd) };
  const [instructions, commands, agents] = await Promise.all([
    readInstructions(instructionCandidates(cwd, [cwd], env), env, claudeMdExcludes(env, cwd)),
    commandFiles(place),
    agentFiles(place),
  ]);
  const n = (count: number, one: string) => `${count} ${one}${count === 1 ? "" : "s"}`;
  const checks: Check[] = [
    {
      check: "setup",
      status: "ok",
      message: `${n(instructions.sections.length, "instruction file")}, ${n(commands.commands.filter((c) => c.kind === "skill").length, "skill")}, ${n(commands.commands.filter((c) => c.kind === "command").length, "command")}, ${n(agents.agents.length, "custom agent")}`,
    },
  ];
  for (const s of [...instructions.skipped, ...commands.skipped, ...agents.skipped])
    checks.push({ check: "setup file", status: "warn", message: `${s.path} is skipped: ${s.reason}` });
  for (const c of [...commands.clashes, ...agents.clashes])
    checks.push({
      check: "setup name",
      status: "warn",
      message: `two definitions of ${c.label}: ${c.passed} is not used (${c.kept} takes precedence)`,
    });
  return checks;
}
