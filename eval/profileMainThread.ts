// Where a batch's main-thread time goes: a warm-up batch over the function bodies, then a CPU profile
// (node:inspector, this thread only: isolates run on theirs) of a second batch over all of them.
// Prints the functions with the most self time, by share of the profile (`(idle)`: the main thread
// waiting, for the isolates among others), and writes the profile for Chrome's DevTools.
// Usage: npx node --no-node-snapshot --expose-gc eval/profileMainThread.ts [--defaults] [--concurrency N]
//        [--warmup N] [--top N] [--out FILE]   (as written, --no-drive --scenarios 1, unless --defaults)
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { FUNCTIONS_FILE } from '../datasets/loadDatasets.ts';
import { readDataset } from '../src/batch/readDataset.ts';
import { runBatch } from '../src/batch/runBatch.ts';

const { values } = parseArgs({ options: {
  defaults: { type: 'boolean', default: false }, concurrency: { type: 'string', default: '2' }, warmup: { type: 'string', default: '100' },
  top: { type: 'string', default: '25' }, out: { type: 'string', default: 'main-thread.cpuprofile' },
} });
const run = values.defaults ? { mode: 'trace' as const } : { mode: 'trace' as const, drive: false, scenarios: 1 };
const concurrency = Number(values.concurrency);
await runBatch(readDataset(FUNCTIONS_FILE), run, { concurrency, limit: Number(values.warmup) });

interface ProfileNode { readonly id: number; readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number } }
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const t0 = performance.now();
await runBatch(readDataset(FUNCTIONS_FILE), run, { concurrency });
const wallMs = performance.now() - t0;
const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
session.disconnect();
writeFileSync(values.out, JSON.stringify(profile));

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
  const name = `${functionName || '(anonymous)'}${url ? ` ${url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${lineNumber + 1}` : ''}`;
  self.set(name, (self.get(name) ?? 0) + dt);
  total += dt;
});
console.log(`${wallMs.toFixed(0)} ms wall, ${(total / 1000).toFixed(0)} ms profiled; self time:`);
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`);
console.log(`profile written to ${values.out}`);
