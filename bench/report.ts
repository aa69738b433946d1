/** The benchmark's table and its targets. */
import type { Append } from "./append.ts";
import { describeBackToBack, type BackToBack } from "./back-to-back.ts";
import type { ColdStart } from "./cold-start.ts";
import type { Live } from "./live.ts";
import type { PostgresBench } from "./postgres.ts";
import type { Reopen } from "./reopen.ts";

/** `reopen`: sessions of streamed turns; `reopenWhole`: the same turns with each text in one chunk. */
export type Results = {
  coldStart: ColdStart;
  live: Live;
  append: Append;
  reopen: Reopen;
  reopenWhole: Reopen;
  postgres?: PostgresBench;
  backToBack?: BackToBack;
};

export type Target = { what: string; target: string; value: string; met: boolean };

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
const us = (n: number) => `${n.toFixed(0)} µs`;
const signedUs = (n: number) => `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(0)} µs`;
const x = (n: number) => `${n.toFixed(2)}x`;
const rate = (n: number) => `${Math.round(n).toLocaleString("en-US")}/s`;
const mb = (n: number) => `${n.toFixed(1)} MB`;

/** The issue's targets, checked against a run. */
export function targets(r: Results): Target[] {
  const out: Target[] = [
    {
      what: "cold start, built, vs floor",
      target: "≤ 1.3x",
      value: x(r.coldStart.built.ratio),
      met: r.coldStart.built.ratio <= 1.3,
    },
    {
      what: "cold start, built, the full agent answering, vs floor",
      target: "≤ 1.0x",
      value: x(r.coldStart.builtFullAgent.ratio),
      met: r.coldStart.builtFullAgent.ratio <= 1.0,
    },
    {
      what: "cold start, built, answered early",
      target: "≤ 25 ms",
      value: ms(r.coldStart.built.verbatim),
      met: r.coldStart.built.verbatim <= 25,
    },
    {
      what: "cold start, source, vs floor",
      target: "≤ 1.3x",
      value: x(r.coldStart.source.ratio),
      met: r.coldStart.source.ratio <= 1.3,
    },
    {
      what: "live per-event cost p99, full speed",
      target: "< 1 ms",
      value: us(r.live.verbatim.costP99),
      met: r.live.verbatim.costP99 < 1000,
    },
    {
      what: "live latency p99, paced, over the floor's",
      target: "< 1 ms",
      value: signedUs(r.live.paced.extraP99),
      met: r.live.paced.extraP99 < 1000,
    },
    {
      what: "live chunks per second, end to end",
      target: "≥ 20,000/s",
      value: rate(r.live.verbatim.perSecond),
      met: r.live.verbatim.perSecond >= 20_000,
    },
  ];
  for (const [reopen, what] of [
    [r.reopen, "streamed turns"],
    [r.reopenWhole, "whole turns"],
  ] as const) {
    for (const run of reopen.runs) {
      out.push({
        what: `reopen ${run.turns.toLocaleString("en-US")} ${what} vs read floor`,
        target: "≤ 3x",
        value: x(run.ratio),
        met: run.ratio <= 3,
      });
    }
    const at = (turns: number) => reopen.runs.find((run) => run.turns === turns);
    const r500 = at(500);
    if (r500)
      out.push({ what: `reopen 500 ${what}`, target: "< 60 ms", value: ms(r500.loadMs), met: r500.loadMs < 60 });
    const r10k = at(10_000);
    if (r10k)
      out.push({ what: `reopen 10,000 ${what}`, target: "< 1 s", value: ms(r10k.loadMs), met: r10k.loadMs < 1000 });
    if (r500)
      out.push({
        what: `peak RSS, 500 ${what}`,
        target: "< 80 MB",
        value: mb(r500.peakRssMb),
        met: r500.peakRssMb < 80,
      });
    out.push({
      what: `reopen of ${what} grows linearly (r² of time over turns)`,
      target: "≥ 0.99",
      value: reopen.linearR2.toFixed(3),
      met: reopen.linearR2 >= 0.99,
    });
  }
  const b = r.backToBack;
  if (b) {
    out.push(
      {
        what: `write-ahead log through ${b.turns} turns back to back`,
        target: `≤ ${mb(b.boundBytes / 1024 / 1024)}`,
        value: mb(b.maxWalBytes / 1024 / 1024),
        met: b.maxWalBytes <= b.boundBytes,
      },
      {
        what: "write-ahead log left after SIGTERM",
        target: "0 MB",
        value: mb(b.walAfterSigtermBytes / 1024 / 1024),
        met: b.walAfterSigtermBytes === 0,
      },
      {
        what: `reopen of ${b.turns} turns run back to back, log as left, sent once the engine has loaded`,
        target: "≤ 36 ms",
        value: ms(b.reopenAsLeftEngineLoadedMs),
        met: b.reopenAsLeftEngineLoadedMs <= 36,
      },
    );
  }
  if (r.postgres) {
    const p99 = r.postgres.append.postgres.p99Us / 1000;
    out.push({
      what: "PostgreSQL append p99 (loopback, default durability)",
      target: "< 2 ms",
      value: ms(p99),
      met: p99 < 2,
    });
    for (const run of r.postgres.reopen) {
      out.push({
        what: `PostgreSQL reopen ${run.turns.toLocaleString("en-US")} turns vs SQLite's`,
        target: "≤ 2x",
        value: x(run.ratio),
        met: run.ratio <= 2,
      });
    }
  }
  return out;
}

function rows(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

/** The results as Markdown tables (what `bun run bench` prints and docs/performance.md shows). */
export function table(r: Results, checks: Target[]): string {
  const c = r.coldStart;
  const l = r.live;
  const a = r.append;
  const measures = rows(
    ["measure", "verbatim", "floor", "ratio"],
    [
      [`cold start, built (median of ${c.runs})`, ms(c.built.verbatim), ms(c.built.floor), x(c.built.ratio)],
      [
        `cold start, built, full agent answering (median of ${c.runs})`,
        ms(c.builtFullAgent.verbatim),
        ms(c.builtFullAgent.floor),
        x(c.builtFullAgent.ratio),
      ],
      [`cold start, source (median of ${c.runs})`, ms(c.source.verbatim), ms(c.source.floor), x(c.source.ratio)],
      [
        `live: chunks per second (${l.chunks.toLocaleString("en-US")} chunks)`,
        rate(l.verbatim.perSecond),
        rate(l.floor.perSecond),
        x(l.throughputRatio),
      ],
      [
        "live: latency p50, provider event → client",
        us(l.verbatim.latencyP50),
        us(l.floor.latencyP50),
        x(l.verbatim.latencyP50 / l.floor.latencyP50),
      ],
      [
        "live: latency p90",
        us(l.verbatim.latencyP90),
        us(l.floor.latencyP90),
        x(l.verbatim.latencyP90 / l.floor.latencyP90),
      ],
      [
        "live: latency p99",
        us(l.verbatim.latencyP99),
        us(l.floor.latencyP99),
        x(l.verbatim.latencyP99 / l.floor.latencyP99),
      ],
      [
        "live: agent's cost per chunk p50 / p99",
        `${us(l.verbatim.costP50)} / ${us(l.verbatim.costP99)}`,
        `${us(l.floor.costP50)} / ${us(l.floor.costP99)}`,
        "",
      ],
      [
        `live, paced (a chunk every ${l.paced.pauseMs} ms): latency p50`,
        us(l.paced.verbatim.latencyP50),
        us(l.paced.floor.latencyP50),
        signedUs(l.paced.extraP50),
      ],
      [
        "live, paced: latency p90",
        us(l.paced.verbatim.latencyP90),
        us(l.paced.floor.latencyP90),
        signedUs(l.paced.verbatim.latencyP90 - l.paced.floor.latencyP90),
      ],
      [
        "live, paced: latency p99",
        us(l.paced.verbatim.latencyP99),
        us(l.paced.floor.latencyP99),
        signedUs(l.paced.extraP99),
      ],
      [
        `append, default durability (${a.normal.facts.toLocaleString("en-US")} facts)`,
        rate(a.normal.perSecond),
        rate(a.normal.floorPerSecond),
        x(a.normal.ratio),
      ],
      [
        `append, strict durability (${a.strict.facts.toLocaleString("en-US")} facts)`,
        rate(a.strict.perSecond),
        rate(a.strict.floorPerSecond),
        x(a.strict.ratio),
      ],
    ],
  );
  const reopenTable = (reopen: Reopen) => {
    const t = reopen.shape;
    const title = `${t.thinkingChunks} thinking, ${t.answerChunks} + ${t.afterChunks} answer chunks and a ${t.outputLines}-line Read a turn`;
    const table = rows(
      [
        "turns",
        "facts",
        "stored",
        "updates sent",
        "load",
        "read floor",
        "ratio",
        "RSS after init",
        "peak RSS",
        "peak / init",
      ],
      reopen.runs.map((run) => [
        run.turns.toLocaleString("en-US"),
        run.facts.toLocaleString("en-US"),
        mb(run.storedBytes / 1024 / 1024),
        run.updates.toLocaleString("en-US"),
        ms(run.loadMs),
        ms(run.floorMs),
        x(run.ratio),
        mb(run.rssAfterInitializeMb),
        mb(run.peakRssMb),
        x(run.peakRatio),
      ]),
    );
    return `${title}:\n\n${table}\nreopen: ${ms(reopen.msPerThousandTurns)} per 1,000 turns, r² = ${reopen.linearR2.toFixed(3)}`;
  };
  const targetTable = rows(
    ["target", "goal", "measured", "met"],
    checks.map((t) => [t.what, t.target, t.value, t.met ? "yes" : "NO"]),
  );
  const pg = r.postgres;
  const pgTable = pg
    ? `\n\nPostgreSQL beside SQLite (store API, each append awaited):\n\n${rows(
        ["measure", "SQLite", "PostgreSQL", "ratio"],
        [
          [
            `appends per second (${pg.append.postgres.facts.toLocaleString("en-US")})`,
            rate(pg.append.sqlite.perSecond),
            rate(pg.append.postgres.perSecond),
            x(pg.append.postgres.perSecond / pg.append.sqlite.perSecond),
          ],
          [
            "append p50 / p99",
            `${us(pg.append.sqlite.p50Us)} / ${us(pg.append.sqlite.p99Us)}`,
            `${us(pg.append.postgres.p50Us)} / ${us(pg.append.postgres.p99Us)}`,
            "",
          ],
          [
            "strict: appends per second",
            rate(pg.append.sqliteStrict.perSecond),
            rate(pg.append.postgresStrict.perSecond),
            x(pg.append.postgresStrict.perSecond / pg.append.sqliteStrict.perSecond),
          ],
          [
            "strict: append p50 / p99",
            `${us(pg.append.sqliteStrict.p50Us)} / ${us(pg.append.sqliteStrict.p99Us)}`,
            `${us(pg.append.postgresStrict.p50Us)} / ${us(pg.append.postgresStrict.p99Us)}`,
            "",
          ],
          ...(
            [
              ["floor: round trip (SELECT 1) p50 / p99", pg.append.floors.roundTrip],
              ["floor: one-row commit, synchronous p50 / p99", pg.append.floors.syncCommit],
            ] as const
          ).map(([what, f]) => [what, "", `${us(f.p50Us)} / ${us(f.p99Us)}`, ""]),
          [
            "floor: 8 KB write + fdatasync p50 / p99",
            `${us(pg.append.floors.diskFlush.p50Us)} / ${us(pg.append.floors.diskFlush.p99Us)}`,
            "",
            "",
          ],
          ...pg.reopen.map((run) => [
            `reopen ${run.turns.toLocaleString("en-US")} turns (${run.facts.toLocaleString("en-US")} facts)`,
            ms(run.sqliteMs),
            ms(run.postgresMs),
            x(run.ratio),
          ]),
        ],
      )}`
    : "";
  const turns = r.backToBack ? `\n\n${describeBackToBack(r.backToBack)}` : "";
  return `${measures}${turns}\n\n${reopenTable(r.reopen)}\n\n${reopenTable(r.reopenWhole)}${pgTable}\n\n${targetTable}\n`;
}
