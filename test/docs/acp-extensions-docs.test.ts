/**
 * docs/acp-language.md lists verbatim's ACP extensions from the one module that defines them
 * (src/protocol/extensions.ts): every method and notification, by name, with the names of its
 * params and result schemas, and the reasons their errors name.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as extensions from "../../src/protocol/extensions.ts";

const doc = readFileSync(join(resolve(import.meta.dir, "../.."), "docs/acp-language.md"), "utf8");

/** The text between two markers of the doc. */
function between(name: string): string {
  const found = doc.match(new RegExp(`<!-- ${name}:start -->([\\s\\S]*?)<!-- ${name}:end -->`));
  if (!found) throw new Error(`docs/acp-language.md has no ${name} markers`);
  return found[1]!;
}

type Row = { name: string; kind: string; params: string; result: string };

const rows: Row[] = between("extensions")
  .split("\n")
  .filter((line) => line.startsWith("| `"))
  .map((line) => {
    const [name, kind, params, result] = line
      .split("|")
      .slice(1, 5)
      .map((cell) => cell.trim().replaceAll("`", ""));
    return { name: name!, kind: kind!, params: params!, result: result! };
  });

/** The schema the module exports under `name`, if any. */
const exported = (name: string): unknown => (extensions as Record<string, unknown>)[name];

describe("docs/acp-language.md's list of verbatim's extensions", () => {
  test("names every extension method the module defines, and only those, as requests", () => {
    const requests = rows.filter((row) => row.kind === "request").map((row) => row.name);
    expect(requests.sort()).toEqual(Object.keys(extensions.EXTENSION_METHODS).sort());
  });

  test("names every extension notification the module defines, and only those", () => {
    const notifications = rows.filter((row) => row.kind.startsWith("notification")).map((row) => row.name);
    expect(notifications.sort()).toEqual(Object.keys(extensions.EXTENSION_NOTIFICATIONS).sort());
  });

  test("each method's params and result are named by the schemas the module serves it with", () => {
    const named = rows
      .filter((row) => row.kind === "request")
      .map((row) => ({ name: row.name, params: exported(row.params), result: exported(row.result) }));
    const table = Object.entries(extensions.EXTENSION_METHODS).map(([name, { params, result }]) => ({
      name,
      params,
      result,
    }));
    expect(named.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      table.sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  test("each notification's params are named by the schema the module defines for it", () => {
    for (const row of rows.filter((r) => r.kind.startsWith("notification")))
      expect(exported(row.params)).toBe(
        extensions.EXTENSION_NOTIFICATIONS[row.name as keyof typeof extensions.EXTENSION_NOTIFICATIONS]?.params,
      );
  });

  test("lists the reasons the extensions' errors name, as the module does", () => {
    const listed = [...between("extension-reasons").matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    expect(listed).toEqual([...extensions.extensionErrorReason.options]);
  });
});
