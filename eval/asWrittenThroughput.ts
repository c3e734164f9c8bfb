// Issue 12's throughput pair: trace mode, one execution as written (no drive, no exploration),
// over the function-body set at concurrency 2, in wall time and per CPU-second of this process.
// It uses only runBatch(dataset, runOptions, batchOptions), whose signature is the same at 528f8ce
// (before issue 12, which has no drive or scenarios options) and now, so the same file measures
// both: copy it into a clean clone of each commit and run them back to back.
// Usage: node --no-node-snapshot --expose-gc eval/asWrittenThroughput.ts FUNCTIONS.jsonl [LABEL]
import { loadavg } from 'node:os';
import { runBatch } from '../src/batch/runBatch.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: asWrittenThroughput.ts FUNCTIONS.jsonl [LABEL]');
const label = process.argv[3] ?? '';

async function measure(options: Record<string, unknown>) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { summary } = await runBatch(file!, options, { concurrency: 2 });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const snippets = (summary as { snippets?: number; total?: number }).snippets ?? (summary as { total?: number }).total ?? 0;
  return { snippets, seconds, cpuSeconds, perSecond: snippets / seconds, perCpuSecond: snippets / cpuSeconds };
}

const load = loadavg()[0]!.toFixed(2);
let options: Record<string, unknown> = { mode: 'trace', drive: false, scenarios: 1 };
let figures;
try {
  figures = await measure(options);
} catch (error) {
  // Before issue 13 there was neither drive nor exploration: every run was as written.
  if (!/drive|scenarios|Unrecognized/i.test(String(error))) throw error;
  options = { mode: 'trace' };
  figures = await measure(options);
}
console.log(JSON.stringify({ label, options, load, ...figures }));
