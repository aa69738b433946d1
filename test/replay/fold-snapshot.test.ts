/**
 * The session fold's snapshot, as the replay cache's state head keeps it: written field by field,
 * read back only when it is exactly a fold's snapshot, and in the text stored states already hold.
 */
import { describe, expect, test } from "bun:test";
import type { Fact } from "../../src/journal/facts/index.ts";
import { isFoldSnapshot, restoreFold, snapshotFold } from "../../src/replay/fold-snapshot.ts";
import { SessionStateFold } from "../../src/replay/state.ts";

const FACTS: Fact[] = [
  {
    kind: "session_started",
    cwd: "/work/app",
    additionalDirectories: ["/work/lib"],
    agentVersion: "test",
    systemPrompt: "You are verbatim.",
    tools: [{ name: "Read", description: "Reads a file.", inputSchema: { type: "object" } }],
    modes: { currentModeId: "default", availableModes: [{ id: "default", name: "Default" }] },
    configOptions: [],
  },
  { kind: "title_set", title: "A title" },
  {
    kind: "permission_rule_added",
    requestId: "req_1",
    toolCallId: "call_1",
    toolName: "Bash",
    scope: "npm test",
    decision: "allow",
  },
  { kind: "file_seen", toolCallId: "call_2", path: "/work/app/a.ts", sha256: "ab".repeat(32) },
] as Fact[];

function folded(): SessionStateFold {
  const fold = new SessionStateFold();
  FACTS.forEach((fact, i) => fold.apply(fact, i + 1));
  return fold;
}

/**
 * What the state head held before the snapshot was written by hand: the fold's own fields, its maps
 * tagged. `openJobs`, added since, is left out while empty, as states stored before it hold it;
 * `openQuestions`, added since, is never kept (a state is stored at a turn's end, when none is open).
 */
const reflectiveJson = (fold: SessionStateFold) =>
  JSON.stringify(fold, (key, value: unknown) =>
    (key === "openJobs" && value instanceof Map && value.size === 0) || key === "openQuestions"
      ? undefined
      : value instanceof Map
        ? { $verbatimMap: [...value] }
        : value,
  );

describe("the session fold's snapshot", () => {
  test("is the text stored states already hold", () => {
    expect(snapshotFold(folded())).toBe(reflectiveJson(folded()));
  });

  test("restores a fresh fold to the same state", () => {
    const restored = new SessionStateFold();
    restoreFold(restored, snapshotFold(folded()));
    expect(snapshotFold(restored)).toBe(snapshotFold(folded()));
    expect(restored.seenFiles.get("/work/app/a.ts")).toBe("ab".repeat(32));
    expect(restored.rules).toEqual([
      { requestId: "req_1", toolCallId: "call_1", toolName: "Bash", scope: "npm test", decision: "allow" },
    ]);
  });

  test("with a field the fold does not have, or one of another type, is refused and restores nothing", () => {
    const text = snapshotFold(folded());
    const extra = JSON.stringify({ ...JSON.parse(text), apply: "forged" });
    const retyped = JSON.stringify({ ...JSON.parse(text), lastSeq: "4" });
    for (const forged of [extra, retyped, "[]", "not json"]) {
      expect(isFoldSnapshot(forged)).toBe(false);
      const fold = new SessionStateFold();
      expect(() => restoreFold(fold, forged)).toThrow();
      expect(snapshotFold(fold)).toBe(snapshotFold(new SessionStateFold()));
    }
    expect(isFoldSnapshot(text)).toBe(true);
  });
});

describe("the files a rewind leaves seen", () => {
  const seen = (seq: number, sha: string): [Fact, number] => [
    { kind: "file_seen", toolCallId: `call_${seq}`, path: "/work/app/a.ts", sha256: sha.repeat(64) },
    seq,
  ];

  test("are as the kept records last saw them", () => {
    const fold = new SessionStateFold();
    for (const [fact, seq] of [seen(2, "a"), seen(4, "b"), seen(6, "c")]) fold.apply(fact, seq);
    fold.apply({ kind: "session_rewound", toSeq: 5, earlier: [] }, 7);
    expect(fold.seenFiles.get("/work/app/a.ts")).toBe("b".repeat(64));
    fold.apply({ kind: "session_rewound", toSeq: 1, earlier: [] }, 8);
    expect(fold.seenFiles.has("/work/app/a.ts")).toBe(false);
  });

  test("survive the state's snapshot", () => {
    const fold = new SessionStateFold();
    for (const [fact, seq] of [seen(2, "a"), seen(4, "b")]) fold.apply(fact, seq);
    const restored = new SessionStateFold();
    restoreFold(restored, snapshotFold(fold));
    restored.apply({ kind: "session_rewound", toSeq: 3, earlier: [] }, 5);
    expect(restored.seenFiles.get("/work/app/a.ts")).toBe("a".repeat(64));
  });
});
