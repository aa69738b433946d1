/**
 * `verbatim sessions` as a table a person reads: a header, then per session its id, when it was
 * last active (relative), its model, how many turns it had, the room its records take, its title
 * and directory, and under it
 * the subagent sessions its Task calls started (their rows name it as their parent when they were
 * created), and where a live process runs it. Everything that came from content (titles, directories, models, hosts) is drawn
 * through `visible`, on one line.
 */
import type { FactKind } from "../journal/facts/index.ts";
import type { SessionRow, LeaseStore, FactStore } from "../journal/store.ts";
import type { ListedSession } from "../core/session/list-here.ts";
import { lastRetraction } from "../core/replay-cache/rewind-lookup.ts";
import { visible } from "../view/visible-text.ts";
import { byteSize } from "./byte-size.ts";
import { relativeTime } from "./relative-time.ts";

type Line = { id: string; when: string; model: string; turns: string; size: string; title: string; rest: string };

/** Where a live process runs the session, if one holds it: `verbatim watch ID` follows it from here. */
async function runningMark(store: FactStore & LeaseStore, sessionId: string): Promise<string> {
  const holder = await store.holder(sessionId);
  if (!holder) return "";
  return `  (running: pid ${holder.pid}${holder.host ? ` on ${oneLine(holder.host)}` : ""})`;
}

const oneLine = (text: string) => visible(text).replaceAll("\n", " ");
const TITLE_WIDTH = 60;
const short = (text: string) => (text.length > TITLE_WIDTH ? `${text.slice(0, TITLE_WIDTH - 1)}…` : text);

const CONFIG_KINDS: readonly FactKind[] = ["config_changed", "session_started"];

/**
 * How many turns the session has as a client reopening it is shown: its prompts, less those its
 * rewinds took back (an edited prompt counts once, as its new text).
 */
async function turnsOf(store: FactStore & LeaseStore, sessionId: string): Promise<number> {
  const [prompts, rewind] = await Promise.all([
    store.countOf(sessionId, ["prompt_received"]),
    lastRetraction(store, sessionId),
  ]);
  const taken = rewind?.ranges ?? [];
  const retracted = await Promise.all(taken.map((range) => store.countOf(sessionId, ["prompt_received"], range)));
  return prompts - retracted.reduce((sum, n) => sum + n, 0);
}

/** The model a session uses now: its latest config, as recorded. */
async function modelOf(store: FactStore & LeaseStore, sessionId: string): Promise<string> {
  const last = (await store.lastOf(sessionId, CONFIG_KINDS))?.fact;
  const options = last?.kind === "config_changed" || last?.kind === "session_started" ? last.configOptions : [];
  const model = options.find((o) => o.id === "model");
  return model && "currentValue" in model ? String(model.currentValue) : "?";
}

async function describe(
  store: FactStore & LeaseStore,
  row: SessionRow,
  now: number,
): Promise<Omit<Line, "id" | "rest"> & { running: string }> {
  const [model, turns, running, bytes] = await Promise.all([
    modelOf(store, row.sessionId),
    turnsOf(store, row.sessionId),
    runningMark(store, row.sessionId),
    store.sessionBytes(row.sessionId),
  ]);
  return {
    running,
    when: relativeTime(row.updatedAt, now),
    model: oneLine(model),
    turns: String(turns),
    size: byteSize(bytes),
    title: short(oneLine(row.title ?? "(untitled)")),
  };
}

async function subagentType(store: FactStore & LeaseStore, sessionId: string): Promise<string | undefined> {
  const start = (await store.lastOf(sessionId, ["session_started"]))?.fact;
  return start?.kind === "session_started" ? start.subagentType : undefined;
}

/** The lines of a session's subagents, and theirs, indented under it. */
async function childLines(store: FactStore & LeaseStore, parent: string, depth: number, now: number): Promise<Line[]> {
  const lines: Line[] = [];
  for (const child of await store.children(parent)) {
    const [{ running, ...facts }, type] = await Promise.all([
      describe(store, child, now),
      subagentType(store, child.sessionId),
    ]);
    lines.push({
      id: `${"  ".repeat(depth)}↳ ${child.sessionId}`,
      ...facts,
      title: type ? `${oneLine(type)}: ${facts.title}` : facts.title,
      rest: running,
    });
    lines.push(...(await childLines(store, child.sessionId, depth + 1, now)));
  }
  return lines;
}

/** The listing's text: a header and one line per session (its subagents' under it). */
export async function sessionTable(
  store: FactStore & LeaseStore,
  rows: ListedSession[],
  now = Date.now(),
): Promise<string> {
  const lines: Line[] = [];
  for (const row of rows) {
    const fork = row.forkOf ? `  (fork of ${row.forkOf.sessionId})` : "";
    const ran =
      row.group === "repository"
        ? `  (same repository; ran on ${oneLine(row.ranAt?.host ?? "an unknown host")} in ${oneLine(row.ranAt?.cwd ?? row.cwd)})`
        : "";
    const { running, ...facts } = await describe(store, row, now);
    lines.push({ id: row.sessionId, ...facts, rest: `  ${oneLine(row.cwd)}${fork}${ran}${running}` });
    lines.push(...(await childLines(store, row.sessionId, 1, now)));
  }
  const header: Line = {
    id: "SESSION",
    when: "UPDATED",
    model: "MODEL",
    turns: "TURNS",
    size: "SIZE",
    title: "TITLE",
    rest: "  DIRECTORY",
  };
  const width = (key: keyof Line) => Math.max(...[header, ...lines].map((l) => [...l[key]].length));
  const pad = (text: string, to: number) => text + " ".repeat(Math.max(0, to - [...text].length));
  const [id, when, model, turns, size, title] = (["id", "when", "model", "turns", "size", "title"] as const).map(
    width,
  ) as number[];
  const right = (text: string, to: number) => " ".repeat(Math.max(0, to - text.length)) + text;
  const draw = (l: Line) =>
    `${pad(l.id, id!)}  ${pad(l.when, when!)}  ${pad(l.model, model!)}  ${right(l.turns, turns!)}  ${right(l.size, size!)}  ${pad(l.title, title!)}${l.rest}`.trimEnd();
  return [header, ...lines].map(draw).join("\n");
}
