// Where exploration's time goes, body by body: each snippet of a dataset is run three times, one
// after the other in this process (concurrency 1), as written (--no-drive --scenarios 1), with
// drive (--scenarios 1) and with the defaults (drive and exploration), and the process's CPU time
// (all threads, isolates included) is taken around each. Prints the totals and the snippets that
// add the most CPU from one configuration to the next; writes every row to --out as JSON.
// Usage: node --no-node-snapshot eval/profileExplore.ts [--dataset FILE] [--limit N] [--top N] [--out FILE]
// (defaults: datasets/generated/functions.jsonl, all of it, top 15, eval/results/profile-explore.json).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FUNCTIONS_FILE } from '../datasets/loadDatasets.ts';
import { readDataset } from '../src/batch/readDataset.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import type { RunOptionsInput } from '../src/core/options.ts';

const here = new URL('.', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: FUNCTIONS_FILE },
    limit: { type: 'string' },
    top: { type: 'string', default: '15' },
    out: { type: 'string', default: join(here, 'results', 'profile-explore.json') },
  },
});
const CONFIGS = { asWritten: { drive: false, scenarios: 1 }, drive: { scenarios: 1 }, explore: {} } as const satisfies Record<string, RunOptionsInput>;
type Config = keyof typeof CONFIGS;

interface Measure {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly status: string;
  readonly runs: number;
  readonly lineCoverage: number;
  readonly exploredLineCoverage?: number;
  readonly tried?: number;
  readonly scenarioRuns?: number;
  readonly stalled?: number;
}

const limit = values.limit === undefined ? Infinity : Number(values.limit);
const rows: ({ id: string } & Record<Config, Measure>)[] = [];
for await (const item of readDataset(values.dataset)) {
  if (rows.length >= limit) break;
  const row = { id: item.id } as { id: string } & Record<Config, Measure>;
  for (const [name, options] of Object.entries(CONFIGS) as [Config, RunOptionsInput][]) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await runSnippet(item.code, { mode: 'trace', ...(item.lang ? { lang: item.lang } : {}), ...options });
    const cpu = process.cpuUsage(c0);
    row[name] = {
      cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0, status: r.status, runs: r.runs, lineCoverage: r.lineCoverage,
      ...(r.explored ? { exploredLineCoverage: r.explored.lineCoverage, tried: r.explored.tried, scenarioRuns: r.explored.runs, stalled: r.explored.stalled } : {}),
    };
  }
  rows.push(row);
}
writeFileSync(values.out, JSON.stringify(rows, null, 1) + '\n');

const sum = (c: Config, f: (m: Measure) => number) => rows.reduce((n, r) => n + f(r[c]), 0);
const pct = (x: number) => `${((100 * x) / Math.max(1, rows.length)).toFixed(2)} %`;
console.log(`${rows.length} snippets of ${values.dataset}`);
for (const c of Object.keys(CONFIGS) as Config[]) {
  console.log(`${c}: ${(sum(c, (m) => m.cpuMs) / 1000).toFixed(1)} CPU-s, ${(sum(c, (m) => m.wallMs) / 1000).toFixed(1)} s, ${sum(c, (m) => m.runs)} runs, mean line coverage ${pct(sum(c, (m) => m.lineCoverage))}` +
    (c === 'explore' ? `, explored ${pct(sum(c, (m) => m.exploredLineCoverage ?? m.lineCoverage))}, ${sum(c, (m) => m.scenarioRuns ?? 0)} scenario runs` : ''));
}
const top = Number(values.top);
for (const [from, to] of [['asWritten', 'drive'], ['drive', 'explore']] as const) {
  console.log(`\nmost CPU added from ${from} to ${to}:`);
  for (const r of [...rows].sort((a, b) => (b[to].cpuMs - b[from].cpuMs) - (a[to].cpuMs - a[from].cpuMs)).slice(0, top)) {
    const m = r[to];
    console.log(`  +${(m.cpuMs - r[from].cpuMs).toFixed(0)} ms  ${r.id}  ${m.status}, ${m.runs} runs${m.tried !== undefined ? `, ${m.tried} scenarios tried, ${m.scenarioRuns} runs, ${m.stalled} stalled` : ''}`);
  }
}
console.log(`\nwritten to ${values.out}`);
