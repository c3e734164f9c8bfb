// `npm run bench`: speed on a fixed subset, printed as a table and written to eval/results/bench.json.
// Usage: npm run bench [-- --subset FILE.jsonl] [--memory-snippets N]
//   throughput (snippets/s) of trace at concurrency 1 and 2, and of none at 2;
//   per-snippet latency p50/p95; time per injected value; peak RSS;
//   the overhead of instrumentation: the --emit'ted program run instrumented (mode none) against
//   the same program run bare in a fresh isolate;
//   batch memory over N snippets (default 2,000): heap after GC in the first and last tenth;
//   host work per line (parse + instrument) of generated 5,000- and 20,000-line snippets: a linear
//   pipeline gives about the same figure at both sizes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import ivm from 'isolated-vm';
import { readHandwritten } from '../datasets/loadDatasets.ts';
import { readDataset, type DatasetItem } from '../src/batch/readDataset.ts';
import { runBatch } from '../src/batch/runBatch.ts';
import type { BatchRow } from '../src/batch/summarize.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { instrumentSnippet } from '../src/instrument/instrumentSnippet.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { HOST_SHAPES, type HostShape } from './hostShapes.ts';
import type { Mode } from '../src/options.ts';

const here = new URL('.', import.meta.url).pathname;
const { values } = parseArgs({ options: { subset: { type: 'string' }, 'memory-snippets': { type: 'string', default: '2000' } } });
const items: DatasetItem[] = [];
for await (const item of values.subset ? readDataset(values.subset) : readHandwritten()) items.push(item);
const subsetName = values.subset ?? 'datasets/handwritten (60 snippets, committed)';
const gc = (globalThis as { gc?: () => void }).gc;

async function* cycle(n: number): AsyncGenerator<DatasetItem> {
  for (let i = 0; i < n; i++) {
    const item = items[i % items.length] as DatasetItem;
    yield { ...item, id: `${item.id}#${i}` };
  }
}

async function throughput(mode: Mode, concurrency: number, rounds: number): Promise<{ perSecond: number; rows: BatchRow[] }> {
  const rows: BatchRow[] = [];
  const started = performance.now();
  await runBatch(cycle(items.length * rounds), { mode }, { concurrency }, (p) => { rows.push(p.last); });
  return { perSecond: rows.length / ((performance.now() - started) / 1000), rows };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 50);

// Warm-up: module loading and JIT, not measured.
await throughput('trace', 2, 1);

const trace1 = await throughput('trace', 1, 3);
const trace2 = await throughput('trace', 2, 3);
const none2 = await throughput('none', 2, 3);
const dummy2 = await throughput('dummy', 2, 3);
const latencies = trace1.rows.map((r) => r.elapsedMs).sort((a, b) => a - b);
const injected = trace1.rows.reduce((n, r) => n + r.injections.length, 0);
const traceMs = trace1.rows.reduce((n, r) => n + r.elapsedMs, 0);

// Instrumentation overhead: the same completed program, instrumented and bare.
let instrumentedMs = 0;
let bareMs = 0;
let programs = 0;
for (const item of items) {
  const r = await runSnippet(item.code, { mode: 'trace', ...(item.lang ? { lang: item.lang } : {}) });
  if (!r.program || r.status !== 'completed') continue;
  if (item.lang !== undefined && item.lang !== 'js') continue; // the bare run below takes plain JavaScript only
  if (!(await runBare(r.program))) continue; // e.g. top-level await, which a bare script cannot have
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    await runSnippet(r.program, { mode: 'none', ...(item.lang ? { lang: item.lang } : {}) });
    instrumentedMs += performance.now() - t0;
    const t1 = performance.now();
    await runBare(r.program);
    bareMs += performance.now() - t1;
  }
  programs++;
}

// Memory over a long batch: heap after GC, sampled every 100 snippets.
const memorySnippets = Number(values['memory-snippets']);
const heap: number[] = [];
let done = 0;
await runBatch(cycle(memorySnippets), { mode: 'trace' }, { concurrency: 2 }, () => {
  if (++done % 100 === 0) {
    gc?.();
    heap.push(process.memoryUsage().heapUsed);
  }
});
clearInterval(sampler);

// Host work per line: parse and instrument generated snippets of 5,000 and 20,000 lines.
const hostWork: Record<string, Record<number, number>> = {};
for (const shape of ['ordinary', 'ifs'] as HostShape[]) {
  hostWork[shape] = {};
  for (const lines of [5_000, 20_000]) {
    const code = HOST_SHAPES[shape](lines);
    gc?.();
    const t0 = performance.now();
    const parsed = parseSnippet(code, 'js');
    instrumentSnippet(parsed.ast, parsed.code, { lang: 'js', operatorHooks: true });
    (hostWork[shape] as Record<number, number>)[lines] = ((performance.now() - t0) * 1000) / lines;
  }
}
const tenth = Math.max(1, Math.floor(heap.length / 10));
const mb = (b: number) => b / 1024 / 1024;
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const heapFirst = mb(mean(heap.slice(0, tenth)));
const heapLast = mb(mean(heap.slice(-tenth)));

const result = {
  generatedAt: new Date().toISOString(), node: process.version, subset: subsetName, snippets: items.length,
  traceSnippetsPerSecondC1: trace1.perSecond, traceSnippetsPerSecondC2: trace2.perSecond,
  noneSnippetsPerSecondC2: none2.perSecond, dummySnippetsPerSecondC2: dummy2.perSecond,
  traceOverNoneTime: none2.perSecond / trace2.perSecond,
  latencyP50Ms: percentile(latencies, 0.5), latencyP95Ms: percentile(latencies, 0.95),
  msPerInjectedValue: injected === 0 ? 0 : traceMs / injected,
  peakRssMb: mb(peakRss),
  overhead: { programs, instrumentedMs: instrumentedMs / Math.max(1, programs * 3), bareMs: bareMs / Math.max(1, programs * 3), ratio: bareMs === 0 ? 0 : instrumentedMs / bareMs },
  hostWorkMicrosecondsPerLine: hostWork,
  memory: { snippets: memorySnippets, gcExposed: gc !== undefined, heapFirstTenthMb: heapFirst, heapLastTenthMb: heapLast, growthMb: heapLast - heapFirst, heapMbEvery100: heap.map((b) => Math.round(mb(b) * 10) / 10) },
};
writeFileSync(join(here, 'results', 'bench.json'), JSON.stringify(result, null, 2) + '\n');
const f = (x: number, d = 1) => x.toFixed(d);
console.log([
  `| measure (${subsetName}) | value |`, '|---|---|',
  `| trace throughput, concurrency 1 | ${f(trace1.perSecond)} snippets/s |`,
  `| trace throughput, concurrency 2 | ${f(trace2.perSecond)} snippets/s |`,
  `| none throughput, concurrency 2 | ${f(none2.perSecond)} snippets/s |`,
  `| dummy throughput, concurrency 2 | ${f(dummy2.perSecond)} snippets/s |`,
  `| trace time / none time (concurrency 2) | ${f(result.traceOverNoneTime, 2)}× |`,
  `| trace latency p50 / p95 (concurrency 1) | ${f(result.latencyP50Ms)} ms / ${f(result.latencyP95Ms)} ms |`,
  `| time per injected value (trace) | ${f(result.msPerInjectedValue, 2)} ms |`,
  `| peak RSS | ${f(result.peakRssMb, 0)} MB |`,
  `| instrumented / bare run of the emitted program (${programs} programs) | ${f(result.overhead.instrumentedMs, 2)} ms / ${f(result.overhead.bareMs, 2)} ms = ${f(result.overhead.ratio, 2)}× |`,
  `| host work per line (parse + instrument), 5k / 20k lines | ordinary ${f(hostWork.ordinary?.[5_000] ?? 0, 0)} / ${f(hostWork.ordinary?.[20_000] ?? 0, 0)} µs, if-heavy ${f(hostWork.ifs?.[5_000] ?? 0, 0)} / ${f(hostWork.ifs?.[20_000] ?? 0, 0)} µs |`,
  `| heap after GC over ${memorySnippets} snippets, first / last tenth | ${f(heapFirst)} MB / ${f(heapLast)} MB (${heapLast - heapFirst >= 0 ? '+' : ''}${f(heapLast - heapFirst)} MB)${gc ? '' : ' (no --expose-gc)'} |`,
].join('\n'));

/** The program alone: a fresh isolate with a console and timers, nothing of snipexec. */
async function runBare(program: string): Promise<boolean> {
  const isolate = new ivm.Isolate({ memoryLimit: 128 });
  try {
    const context = await isolate.createContext();
    await context.eval(`globalThis.console = { log() {}, error() {}, warn() {}, info() {} }; globalThis.setTimeout = (f) => { Promise.resolve().then(f); return 0; }; globalThis.setImmediate = globalThis.setTimeout; globalThis.setInterval = () => 0; globalThis.clearTimeout = () => {}; globalThis.clearInterval = () => {};`);
    let script: ivm.Script;
    try { script = await isolate.compileScript(program); } catch { return false; }
    try { await script.run(context, { timeout: 5_000 }); } catch { /* the bare run's errors are not measured */ }
    context.release();
    return true;
  } finally {
    isolate.dispose();
  }
}
