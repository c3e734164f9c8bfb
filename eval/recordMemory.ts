// `node --no-node-snapshot eval/recordMemory.ts [--calls 100000,1000000] [--runs 3] [--root DIR] [--out FILE]`:
// the memory and time of `snipexec record` on a program making N calls of one small function, for each N:
// the program run plainly (`node PROGRAM N`) and recorded (recordProgram, output dropped, --max-calls N),
// interleaved, --runs times each (median). The program reports its own peak RSS (resourceUsage().maxRSS)
// and heap from its exit listener, which runs after the recorder has ended its trace; with the trace's
// bytes and calls, and the recorded time per call beyond the plain run. --root DIR measures another
// checkout's recordProgram (its src/record/recordProgram.ts), for a before/after.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000,1000000' },
    runs: { type: 'string', default: '3' },
    root: { type: 'string', default: join(import.meta.dirname, '..') },
    out: { type: 'string' },
  },
});
const counts = values.calls.split(',').map(Number);
const runs = Number(values.runs);
const root = resolve(values.root);
type RecordFn = (program: string, args: string[], options: object) => Promise<{ exitCode: number; calls?: number }>;
const { recordProgram } = (await import(pathToFileURL(join(root, 'src/record/recordProgram.ts')).href)) as { recordProgram: RecordFn };

const PROGRAM = `function step(total, i) { return total + (i % 7); }
const n = Number(process.argv[2]);
let total = 0;
for (let i = 0; i < n; i++) total = step(total, i);
process.on('exit', () => {
  require('node:fs').writeFileSync(process.argv[3], JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, heapTotal: process.memoryUsage().heapTotal, total }));
});
`;

interface Sample {
  readonly ms: number;
  readonly maxRssMb: number;
  readonly heapTotalMb: number;
}

const work = mkdtempSync(join(tmpdir(), 'snipexec-record-memory-'));
const program = join(work, 'many.cjs');
writeFileSync(program, PROGRAM);
const report = join(work, 'memory.json');
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;

function measured(started: number): Sample {
  const m = JSON.parse(readFileSync(report, 'utf8')) as { maxRssKb: number; heapTotal: number };
  return { ms: performance.now() - started, maxRssMb: m.maxRssKb / 1024, heapTotalMb: m.heapTotal / 1024 / 1024 };
}

const rows = [];
try {
  for (const n of counts) {
    const plain: Sample[] = [];
    const recorded: Sample[] = [];
    let traceBytes = 0;
    let calls = 0;
    for (let i = 0; i < runs; i++) {
      let started = performance.now();
      const r = spawnSync(process.execPath, [program, String(n), report], { stdio: 'ignore' });
      if (r.status !== 0) throw new Error(`plain run exited ${r.status}`);
      plain.push(measured(started));
      started = performance.now();
      const run = await recordProgram(program, [String(n), report], { stdio: 'ignore', maxCalls: n });
      if (run.exitCode !== 0) throw new Error(`recorded run exited ${run.exitCode}`);
      recorded.push(measured(started));
      const tracePath = `${program}.trace.json`;
      traceBytes = statSync(tracePath).size;
      calls = run.calls ?? (JSON.parse(readFileSync(tracePath, 'utf8')) as { calls: unknown[] }).calls.length;
      rmSync(tracePath);
    }
    const row = {
      n, calls, traceMb: round(traceBytes / 1024 / 1024),
      plainMs: round(median(plain.map((s) => s.ms))), recordedMs: round(median(recorded.map((s) => s.ms))),
      usPerCall: round(((median(recorded.map((s) => s.ms)) - median(plain.map((s) => s.ms))) * 1000) / n, 2),
      plainMaxRssMb: round(median(plain.map((s) => s.maxRssMb))), recordedMaxRssMb: round(median(recorded.map((s) => s.maxRssMb))),
      recordedHeapTotalMb: round(median(recorded.map((s) => s.heapTotalMb))),
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const result = { root, runs, loadavg: loadavg().map((x) => round(x, 2)), rows };
if (values.out) writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`load average ${result.loadavg.join(' ')}`);
