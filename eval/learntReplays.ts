// What replaying learning runs (src/engine/replays.ts) saves, in one process: each function body is
// run twice, once as usual and once with a value source of the caller's own (the trace source
// itself), with which a session keeps and replays pure runs only; which goes first alternates from
// body to body, so the machine's load falls on both alike. Prints process CPU ms per snippet (every
// thread) and the runs of each.
// Usage: npx node --no-node-snapshot eval/learntReplays.ts [--limit N] [--warmup N] [--one]
//   --one: one execution as written (--no-drive --scenarios 1), where nothing is replayed; else the defaults.
import { parseArgs } from 'node:util';
import { FUNCTIONS_FILE } from '../datasets/loadDatasets.ts';
import { readDataset, type DatasetItem } from '../src/batch/readDataset.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { valueSourceFor } from '../src/values/providers.ts';

const { values } = parseArgs({ options: { limit: { type: 'string' }, warmup: { type: 'string', default: '50' }, one: { type: 'boolean', default: false } } });
const options = values.one ? { drive: false, scenarios: 1 } : {};
const items: DatasetItem[] = [];
for await (const item of readDataset(FUNCTIONS_FILE)) items.push(item);
const chosen = values.limit === undefined ? items : items.slice(0, Number(values.limit));
const cpuMs = (): number => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const run = (item: DatasetItem, pureOnly: boolean) => runSnippet(item.code, { ...options, ...(item.lang ? { lang: item.lang } : {}) }, pureOnly ? { values: valueSourceFor('trace') } : {});
for (const item of items.slice(0, Number(values.warmup))) await run(item, false);
const sides = { replayed: { ms: 0, runs: 0 }, pureOnly: { ms: 0, runs: 0 } };
for (const [i, item] of chosen.entries()) {
  for (const pureOnly of i % 2 === 0 ? [false, true] : [true, false]) {
    const start = cpuMs();
    const r = await run(item, pureOnly);
    const side = pureOnly ? sides.pureOnly : sides.replayed;
    side.ms += cpuMs() - start;
    side.runs += r.runs + (r.explored?.runs ?? 0);
  }
}
const per = (x: number) => (x / chosen.length).toFixed(2);
console.log(`${chosen.length} function bodies, ${values.one ? 'one execution as written' : 'the defaults'}: learning runs replayed ${per(sides.replayed.ms)} CPU ms and ${per(sides.replayed.runs)} runs per snippet; pure runs only ${per(sides.pureOnly.ms)} CPU ms and ${per(sides.pureOnly.runs)} runs per snippet`);
