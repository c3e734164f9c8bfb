// What loading an environment adds to a run: process CPU (every thread) and wall per
// `runSnippet(code, { mode: 'none', scenarios: 1, drive: false })` of a one-statement snippet
// that selects each environment set, against `1;`, which loads none. One process, the sets one
// after another: --warmup runs each first (the set's startup snapshot and code caches are made
// then), then --runs timed runs. The difference to `1;` is the set's setup in each new context
// (linkedom's page, jQuery's factory, React evaluated per context).
// Usage: npx node --no-node-snapshot eval/environmentCost.ts [--runs N] [--warmup N]
import { parseArgs } from 'node:util';
import { runSnippet } from '../src/engine/runSnippet.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '100' }, warmup: { type: 'string', default: '20' } } });
const runs = Number(values.runs);
const warmup = Number(values.warmup);

const SETS: readonly (readonly [string, string])[] = [
  ['none', '1;'],
  ['browser', 'document.title;'],
  ['browser + jquery', '$("body");'],
  ['browser + react', 'React.createElement("div");'],
  ['node', 'process.argv;'],
  ['node + node-fs', 'require("fs");'],
  ['server', 'const app = require("express")();'],
];

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const options = { mode: 'none', scenarios: 1, drive: false } as const;
const rows: string[] = ['| environments | CPU ms per run | wall ms per run | loaded |', '|---|---|---|---|'];
for (const [name, code] of SETS) {
  for (let i = 0; i < warmup; i++) await runSnippet(code, options);
  const cpu = cpuMs();
  const start = performance.now();
  let loaded: readonly string[] = [];
  for (let i = 0; i < runs; i++) loaded = (await runSnippet(code, options)).environments?.loaded ?? [];
  rows.push(`| ${name} | ${((cpuMs() - cpu) / runs).toFixed(2)} | ${((performance.now() - start) / runs).toFixed(2)} | ${loaded.join(', ') || '–'} |`);
}
console.log(rows.join('\n'));
