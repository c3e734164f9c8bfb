// How much of a batch's CPU runs on the Node main thread: wall time, the whole process's CPU
// (process.cpuUsage: every thread, isolates and workers included) and the main thread's own
// (process.threadCpuUsage), for one batch over the function bodies after a warm-up batch.
// Usage: npx node --no-node-snapshot --expose-gc eval/mainThreadShare.ts [--concurrency N] [--limit N]
//        [--warmup N] [--drive] [--scenarios N]   (scenarios: default 1; 0 = the defaults)
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { FUNCTIONS_FILE } from '../datasets/loadDatasets.ts';
import { readDataset } from '../src/batch/readDataset.ts';
import { runBatch } from '../src/batch/runBatch.ts';

const { values } = parseArgs({ options: {
  concurrency: { type: 'string', default: '2' }, limit: { type: 'string' }, warmup: { type: 'string', default: '100' },
  drive: { type: 'boolean', default: false }, scenarios: { type: 'string', default: '1' }, file: { type: 'string', default: FUNCTIONS_FILE },
} });
const concurrency = Number(values.concurrency);
const scenarios = Number(values.scenarios);
const run = { mode: 'trace' as const, drive: values.drive, ...(scenarios > 0 ? { scenarios } : {}) };
const ms = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
await runBatch(readDataset(values.file), run, { concurrency, limit: Number(values.warmup) });
/** The main thread's time on a CPU and waiting for one (Linux schedstat, ns): their sum is the time it wanted to run. */
const sched = () => readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
const s0 = sched();
const elu0 = performance.eventLoopUtilization();
const cpu0 = process.cpuUsage();
const main0 = process.threadCpuUsage();
const t0 = performance.now();
let runs = 0;
const { ran } = await runBatch(readDataset(values.file), run, { concurrency, ...(values.limit ? { limit: Number(values.limit) } : {}) }, (p) => { runs += p.last.runs + (p.last.explored?.runs ?? 0); });
const wall = performance.now() - t0;
const s1 = sched();
const elu = performance.eventLoopUtilization(elu0).utilization;
const waitMs = (s1[1]! - s0[1]!) / 1e6;
const total = ms(process.cpuUsage(cpu0));
const main = ms(process.threadCpuUsage(main0));
const f = (x: number) => x.toFixed(1);
console.log(JSON.stringify({ concurrency, snippets: ran, runs, wallMs: Math.round(wall), cpuMs: Math.round(total), mainMs: Math.round(main),
  perSecond: f(ran / (wall / 1000)), cpuMsPerSnippet: f(total / ran), mainMsPerSnippet: f(main / ran), mainShareOfCpu: f((100 * main) / total) + '%',
  mainBusyOfWall: f((100 * main) / wall) + '%', cpuOfWall: f((100 * total) / wall) + '%', mainRunqueueWaitMs: Math.round(waitMs), mainWantedOfWall: f((100 * (main + waitMs)) / wall) + '%', eventLoopUtilization: f(100 * elu) + '%', load: (await import('node:os')).loadavg()[0]!.toFixed(2) }));
