/**
 * Making the journal's files private never opens one that exists: closing any descriptor of a
 * file releases every POSIX lock the process holds on it, SQLite's included, and another process
 * could then take a write lock this one holds (or reinitialize the shared memory it has mapped).
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateFile } from "../../src/journal/private-files.ts";
import { sandbox } from "../support/workspace.ts";

/** Whether another process can begin a write transaction on `path` right now (no waiting). */
function anotherProcessCanWrite(path: string): boolean {
  const script = `const { Database } = require("bun:sqlite");
const db = new Database(${JSON.stringify(path)});
db.run("PRAGMA busy_timeout = 0");
try { db.run("BEGIN IMMEDIATE"); db.run("ROLLBACK"); console.log("wrote"); } catch { console.log("busy"); }`;
  const child = Bun.spawnSync([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
  return child.stdout.toString().trim() === "wrote";
}

describe("private journal files", () => {
  test("a missing file is created readable by the user only", () => {
    const path = join(sandbox().root, "journal.db");
    ensurePrivateFile(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  test("an existing file is made readable by the user only, its content untouched", () => {
    const path = join(sandbox().root, "journal.db");
    writeFileSync(path, "kept", { mode: 0o644 });
    ensurePrivateFile(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Bun.file(path).size).toBe(4);
  });

  test("making an open journal's files private leaves this process's SQLite locks in place", () => {
    const path = join(sandbox().root, "journal.db");
    const db = new Database(path, { create: true });
    db.run("PRAGMA journal_mode = WAL");
    db.run("CREATE TABLE t (x)");
    db.run("BEGIN IMMEDIATE");
    try {
      expect(anotherProcessCanWrite(path)).toBe(false);
      for (const file of [path, `${path}-wal`, `${path}-shm`]) ensurePrivateFile(file);
      expect(anotherProcessCanWrite(path)).toBe(false);
    } finally {
      db.run("ROLLBACK");
      db.close();
    }
    expect(anotherProcessCanWrite(path)).toBe(true);
  });
});
