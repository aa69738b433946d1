/**
 * verbatim driven by acpx, a third-party ACP client, over stdio. Every assertion is on what acpx
 * received (the JSON-RPC frames it prints with `--format json`) or on its effects on disk; none
 * looks inside verbatim.
 */
import type { RequestPermissionRequest, SessionNotification, ToolCallContent } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { comparable } from "../../src/cli/demo.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import { fold } from "../../src/view/view-model.ts";
import { connectProcess, load } from "../support/acp-session.ts";
import { Acpx, answerTo, requestsIn, updatesIn, type AcpxRun } from "../support/acpx.ts";
import { textOf } from "../support/cards.ts";
import { sandbox } from "../support/workspace.ts";

const SLOW = 180_000;

type Ensured = { acpxSessionId: string };

/** A fresh workspace, an acpx session made for it with `acpx sessions new`, and its id. */
async function acpxSession(model: string) {
  const box = sandbox(model);
  const acpx = new Acpx(box);
  const { acpxSessionId: sessionId } = await acpx.document<Ensured>(["sessions", "new"]);
  return { box, acpx, sessionId };
}

const toolUpdates = (run: AcpxRun) =>
  updatesIn(run.frames)
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");

const lastContentOf = (run: AcpxRun, toolCallId: string): ToolCallContent[] =>
  toolUpdates(run)
    .filter((u) => u.toolCallId === toolCallId && u.content)
    .at(-1)?.content ?? [];

const stopReasonOf = (run: AcpxRun) => {
  const [promptRequest] = requestsIn(run.frames, "session/prompt");
  return (answerTo(run.frames, promptRequest!).result as { stopReason: string }).stopReason;
};

/**
 * The edit flow: `sessions new`, a prompt whose edit asks and is approved, acpx's agent process
 * exits, a second prompt in a fresh process.
 */
async function editFlow() {
  const { box, acpx, sessionId } = await acpxSession("scripted/edit");
  const first = await acpx.prompt("Fix the third line");
  await acpx.idle();
  const second = await acpx.prompt("Now the fourth");
  await acpx.idle();
  return { first, second, sessionId, box, readme: readFileSync(join(box.workspace, "README.md"), "utf8") };
}

/** The flow runs once; each test gets its own copy (Bun's `toMatchObject` writes its matchers into what it checks). */
let ran: ReturnType<typeof editFlow> | undefined;
const flow = async () => structuredClone(await (ran ??= editFlow()));

describe("acpx drives verbatim", () => {
  test(
    "an edit asks; acpx approves; acpx receives the diff, the answer and end_turn",
    async () => {
      const { first, sessionId } = await flow();
      expect(first.code).toBe(0);
      const [ask] = requestsIn(first.frames, "session/request_permission");
      const question = ask!.params as RequestPermissionRequest;
      expect(question.sessionId).toBe(sessionId);
      expect(question.toolCall).toMatchObject({ title: expect.stringContaining("README.md"), kind: "edit" });
      expect(question.options.map((o) => o.kind)).toContain("allow_once");
      expect(answerTo(first.frames, ask!).result).toEqual({ outcome: { outcome: "selected", optionId: "allow_once" } });

      const edit = toolUpdates(first).find((u) => u.sessionUpdate === "tool_call" && u.kind === "edit")!;
      expect(
        toolUpdates(first)
          .filter((u) => u.toolCallId === edit.toolCallId)
          .at(-1)?.status,
      ).toBe("completed");
      const diff = lastContentOf(first, edit.toolCallId).find((c) => c.type === "diff");
      expect(diff).toMatchObject({
        oldText: expect.stringContaining("Line three."),
        newText: expect.stringContaining("Line 3."),
      });
      expect(textOf(lastContentOf(first, edit.toolCallId))).toContain("Permission: Allow");
      expect(stopReasonOf(first)).toBe("end_turn");
    },
    SLOW,
  );

  test(
    "the edit went through acpx's file system methods and changed the file",
    async () => {
      const { first, readme } = await flow();
      const [write] = requestsIn(first.frames, "fs/write_text_file");
      expect((write!.params as { content: string }).content).toContain("Line 3.");
      expect(readme).toBe("# Sample\n\nLine 3.\nLine 4.\n");
    },
    SLOW,
  );

  test(
    "a fresh verbatim process resumes the session (session/resume) and the conversation continues",
    async () => {
      const { second, sessionId } = await flow();
      expect(second.code).toBe(0);
      const [resume] = requestsIn(second.frames, "session/resume");
      expect(resume?.params).toMatchObject({ sessionId });
      expect(answerTo(second.frames, resume!).result).toMatchObject({ modes: { currentModeId: "default" } });
      expect(requestsIn(second.frames, "session/new")).toEqual([]);
      // Resuming replays nothing: it sends only what a client needs to draw the session (its
      // commands and context usage, as the load's replay ends with them); then comes the new prompt's echo.
      const updates = updatesIn(second.frames);
      expect(updates.slice(0, 2).map((n) => n.update.sessionUpdate)).toEqual([
        "available_commands_update",
        "usage_update",
      ]);
      expect(updates[2]?.update).toMatchObject({
        sessionUpdate: "user_message_chunk",
        content: { text: "Now the fourth" },
      });
      // The scenario's second prompt edits the fourth line: the session knew it was the second prompt.
      const edit = toolUpdates(second).find((u) => u.sessionUpdate === "tool_call")!;
      expect(lastContentOf(second, edit.toolCallId).find((c) => c.type === "diff")).toMatchObject({
        newText: expect.stringContaining("Line 4."),
      });
      expect(stopReasonOf(second)).toBe("end_turn");
    },
    SLOW,
  );

  test(
    "session/load in another fresh process shows exactly what acpx was shown live, field by field",
    async () => {
      const { first, second, sessionId, box } = await flow();
      const live = fold(
        [...updatesIn(first.frames), ...updatesIn(second.frames)].map((n: SessionNotification) => n.update),
      );
      const fresh = await connectProcess(box.env);
      try {
        await load(fresh.ctx, sessionId, box.workspace);
      } finally {
        await fresh.close();
      }
      const reloaded = fresh.client.view(sessionId);
      expect(live.problems).toEqual([]);
      expect(Object.keys(live.toolCalls)).toHaveLength(3);
      // acpx saw the session's modes, commands and config in the session/new and session/resume
      // responses, not as updates; everything it was shown as updates comes back the same.
      const shownToAcpx = (view: typeof live) => ({
        ...comparable(view),
        commands: null,
        configOptions: null,
        modeId: null,
      });
      expect(diffValues(shownToAcpx(live), shownToAcpx(reloaded))).toEqual([]);
    },
    SLOW,
  );

  test(
    "a command runs in acpx's terminal; the card ends with the recorded output and exit code",
    async () => {
      const { acpx } = await acpxSession("scripted/command");
      const run = await acpx.prompt("echo hello from acpx; echo to stderr >&2");
      await acpx.idle();
      expect(run.code).toBe(0);
      const [create] = requestsIn(run.frames, "terminal/create");
      // The client's terminal has the client's environment: verbatim's key variables are unset before the model's command.
      expect(create?.params).toMatchObject({
        command: "bash",
        args: [
          "-c",
          expect.stringMatching(/^unset -v ANTHROPIC_API_KEY .*\necho hello from acpx; echo to stderr >&2$/),
        ],
      });
      const card = toolUpdates(run).find((u) => u.sessionUpdate === "tool_call")!;
      expect(card).toMatchObject({ kind: "execute", title: "echo hello from acpx; echo to stderr >&2" });
      const shownLive = toolUpdates(run).filter((u) => u.toolCallId === card.toolCallId);
      expect(shownLive.some((u) => u.content?.some((c) => c.type === "terminal"))).toBe(true);
      const last = shownLive.at(-1)!;
      expect(last.status).toBe("completed");
      expect(last.content?.some((c) => c.type === "terminal")).toBe(false);
      // Both streams reach the card; how the client's terminal interleaves two pipes is the client's.
      expect(textOf(last.content ?? [])).toContain("hello from acpx\n");
      expect(textOf(last.content ?? [])).toContain("to stderr\n");
      expect(textOf(last.content ?? [])).toContain("Exit code 0");
      expect(requestsIn(run.frames, "terminal/release")).toHaveLength(1);
    },
    SLOW,
  );

  test(
    "a denied edit ends failed with the refusal shown, and the file is unchanged",
    async () => {
      const { acpx, box } = await acpxSession("scripted/edit");
      // Reads are allowed (an Edit of a file that cannot be read fails before any question); the edit is denied.
      const run = await acpx.prompt("Fix the third line", "--approve-reads");
      await acpx.idle();
      const [ask] = requestsIn(run.frames, "session/request_permission");
      expect((answerTo(run.frames, ask!).result as { outcome: { optionId?: string } }).outcome.optionId).toStartWith(
        "reject",
      );
      const edit = toolUpdates(run).find((u) => u.sessionUpdate === "tool_call" && u.kind === "edit")!;
      const last = toolUpdates(run)
        .filter((u) => u.toolCallId === edit.toolCallId)
        .at(-1)!;
      expect(last.status).toBe("failed");
      expect(textOf(lastContentOf(run, edit.toolCallId))).toContain("Not run: refused by the user");
      expect(requestsIn(run.frames, "fs/write_text_file")).toEqual([]);
      expect(readFileSync(join(box.workspace, "README.md"), "utf8")).toContain("Line three.");
    },
    SLOW,
  );

  test(
    "acpx lists verbatim's sessions (session/list) with their titles and directories",
    async () => {
      const { acpx, box, sessionId } = await acpxSession("scripted/plain");
      await acpx.prompt("Say hello");
      await acpx.idle();
      const listed = await acpx.document<{
        source: string;
        sessions: { sessionId: string; cwd: string; title?: string }[];
      }>(["sessions", "list"]);
      expect(listed.source).toBe("agent");
      expect(listed.sessions).toContainEqual(
        expect.objectContaining({ sessionId, cwd: box.workspace, title: "Say hello" }),
      );
    },
    SLOW,
  );
});
