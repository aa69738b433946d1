/**
 * Edits are checked before asking: an Edit that cannot apply (old_string absent, ambiguous
 * without replace_all, or the file changed since it was read) fails without a permission question,
 * and the question for one that can shows exactly the diff that is then written.
 */
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { connectProcess, newSession, prompt } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import { sandbox } from "../support/workspace.ts";
import { cards } from "../parity/harness.ts";

/** A session on `scripted/call` whose client allows once and keeps every question it is asked. */
async function callSession() {
  const box = sandbox("scripted/call");
  const readme = join(box.workspace, "README.md");
  const asked: RequestPermissionRequest[] = [];
  const allow = choose("allow_once");
  const c = await connectProcess(box.env, {
    policy: (request) => {
      asked.push(request);
      return allow(request);
    },
  });
  const { sessionId } = await newSession(c.ctx, box.workspace);
  const call = (name: string, args: unknown) => prompt(c.ctx, sessionId, `${name} ${JSON.stringify(args)}`);
  const lastCard = () => cards(c.client.view(sessionId)).at(-1);
  await call("Read", { file_path: readme });
  return { box, readme, asked, c, call, lastCard };
}

describe("an Edit that cannot apply", () => {
  test("old_string absent: fails without a question, and the file is unchanged", async () => {
    const s = await callSession();
    try {
      await s.call("Edit", { file_path: s.readme, old_string: "No such text", new_string: "x" });
      expect(s.asked).toEqual([]);
      expect(s.lastCard()?.status).toBe("failed");
      expect(textOf(s.lastCard()?.content)).toContain("old_string was not found");
      expect(readFileSync(s.readme, "utf8")).toBe("# Sample\n\nLine three.\nLine four.\n");
    } finally {
      await s.c.close();
    }
  });

  test("old_string ambiguous without replace_all: fails without a question", async () => {
    const s = await callSession();
    try {
      await s.call("Edit", { file_path: s.readme, old_string: "Line", new_string: "Row" });
      expect(s.asked).toEqual([]);
      expect(textOf(s.lastCard()?.content)).toContain("occurs 2 times");
    } finally {
      await s.c.close();
    }
  });

  test("the file changed since it was read: fails without a question, and the change is kept", async () => {
    const s = await callSession();
    try {
      writeFileSync(s.readme, "# Sample\n\nLine three.\nLine four, edited by the user.\n");
      await s.call("Edit", { file_path: s.readme, old_string: "Line three.", new_string: "Line 3." });
      expect(s.asked).toEqual([]);
      expect(s.lastCard()?.status).toBe("failed");
      expect(textOf(s.lastCard()?.content)).toContain("has changed since you last read it");
      expect(readFileSync(s.readme, "utf8")).toBe("# Sample\n\nLine three.\nLine four, edited by the user.\n");
    } finally {
      await s.c.close();
    }
  });

  test("a Write over a file changed since it was read: fails without a question", async () => {
    const s = await callSession();
    try {
      writeFileSync(s.readme, "changed by the user\n");
      await s.call("Write", { file_path: s.readme, content: "overwritten\n" });
      expect(s.asked).toEqual([]);
      expect(s.lastCard()?.status).toBe("failed");
      expect(textOf(s.lastCard()?.content)).toContain("has changed since you last read it");
      expect(readFileSync(s.readme, "utf8")).toBe("changed by the user\n");
    } finally {
      await s.c.close();
    }
  });
});

describe("an Edit that can apply", () => {
  test("the question shows exactly the diff that is written", async () => {
    const s = await callSession();
    try {
      const before = readFileSync(s.readme, "utf8");
      await s.call("Edit", { file_path: s.readme, old_string: "Line", new_string: "Row", replace_all: true });
      expect(s.asked).toHaveLength(1);
      const shown = (s.asked[0]?.toolCall.content ?? []).filter((c) => c.type === "diff");
      expect(shown).toEqual([
        { type: "diff", path: s.readme, oldText: before, newText: readFileSync(s.readme, "utf8") },
      ]);
      expect(readFileSync(s.readme, "utf8")).toBe("# Sample\n\nRow three.\nRow four.\n");
    } finally {
      await s.c.close();
    }
  });
});
