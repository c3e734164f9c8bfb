// `npm run bench`: speed, printed as a table and written to eval/results/bench.json (or --out).
// Usage: npm run bench [-- --only SECTIONS] [--out FILE] [--start-runs N] [--functions FILE]
//                      [--functions-limit N] [--handwritten-rounds N] [--concurrency N]
//                      [--subset FILE] [--memory-snippets N] [--rows FILE] [--record-runs N]
//                      [--cli-runs N] [--cli-bin FILE]
// Sections (--only, comma-separated; all by default), measured in this order:
//   start        time to start a run, through runSnippet in mode none: `1;` (isolate + runtime),
//                `document.title;` (the browser environment) and `$('#x');` (jQuery on it). The first
//                call of each, in a fresh process, is reported on its own as the cold start, with
//                whether the bundle cache (node_modules/.cache/snipexec) was warm; then one warm-up
//                each, then N runs each (default 30), interleaved: median and p95;
//   cli          wall time of a CLI start that runs nothing, in a fresh `node --no-node-snapshot bin/snipexec.cjs`
//                (the Node running the bench; --cli-bin FILE times another checkout's bin): `--version`,
//                `--help` and a usage error (`run --no-such-flag`, exit 2), with `node --no-node-snapshot -e 0`
//                as the floor, 2 warm-ups each, then --cli-runs rounds (default 20) of the four, interleaved:
//                wall median and p95 (target: --version < 150 ms), and the median CPU of the child (user +
//                system; Linux), steadier than wall on a loaded machine;
//   functions    trace throughput (snippets/s) over the function-body set (datasets/generated/
//                functions.jsonl, built by `npm run datasets`), at --concurrency (default 2): mode none
//                with one execution first (each trace figure is also given as a share of none's); then one
//                pass as written with one execution (--no-drive --scenarios 1, comparable with versions
//                before drive and exploration), one with drive (--scenarios 1), one with the defaults;
//   handwritten  trace throughput over datasets/handwritten (its dom, jquery and react snippets load
//                environments), --handwritten-rounds passes (default 3), with per-part latency;
//   subset       on a fixed subset (--subset FILE, else datasets/handwritten): throughput of trace at
//                concurrency 1 and 2, of none and dummy at 2; per-snippet latency p50/p95; time per
//                injected value; peak RSS; the overhead of instrumentation (the --emit'ted program run
//                instrumented in mode none against the same program run bare in a fresh isolate);
//                batch memory over --memory-snippets snippets (default 2,000): heap after GC in the
//                first and last tenth; host work per line (parse + instrument) of generated 5,000-
//                and 20,000-line snippets: a linear pipeline gives about the same figure at both sizes;
//   diff         `snipexec diff` on every change of eval/diff-history (real commits; one at a time):
//                median and p95 wall time per changed function, runs and edge scenarios per change;
//                each in a repository holding the changed file alone, or with --repos DIR in a
//                checkout of its repository, as `npm run eval-diff` runs it (evalDiffHistory.ts);
//   queue        (not in the default set; --queue alone runs it) batch --queue on a local redis-server
//                (test/redisServer.ts): the function-body set (--functions-limit, default 300) run locally
//                at --concurrency, then through the queue with 1 and 2 `snipexec worker` processes at the
//                same concurrency each: snippets/s, and the queue's overhead per job in ms (1 worker's
//                time minus the local batch's, over the snippets);
//   record       the overhead of `snipexec record` (issue 14, target ≤ 3×) on the small real programs of
//                eval/record-programs/ (copied to a temp dir, where their traces go): each run plainly
//                (`node PROGRAM ARGS`) and recorded (recordProgram, output dropped), once to warm up,
//                then --record-runs times each (default 7), interleaved: median wall ms of each and their
//                ratio, median CPU ms (the program's process and recordProgram's own work; Linux) and
//                theirs, the calls recorded and the trace's bytes; the median ratio over the programs
//                (empty/ alone measures the fixed cost of a recorded run and is left out of it).
// Every section that runs snippets gives the isolate runs per snippet (exploration's included) beside its
// figures; cli and record run none. Every report ends with the warm isolates' figures (src/sandbox/isolatePool.ts):
// isolates made, runs in a reused one, runs in a context prepared ahead, and why isolates were disposed; SNIPEXEC_ISOLATE_RUNS=N sets how many runs
// an isolate hosts (1: none reused); then the runs replayed instead of executed (src/engine/replays.ts).
// --rows FILE appends each snippet of the functions and handwritten sections (id, status, runs,
// elapsedMs, environments) to FILE as JSONL, to compare two versions snippet by snippet.
// Timings are wall clock on a shared machine: compare runs of the same machine and load only.
// Against a peer tool, Fakeium, snippet by snippet: `npm run bench-peer -- --fakeium DIR` (eval/benchPeer.ts).
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import ivm from 'isolated-vm';
import { FUNCTIONS_FILE, readHandwritten } from '../datasets/loadDatasets.ts';
import { readDataset, type DatasetItem } from '../src/batch/readDataset.ts';
import { runBatch } from '../src/batch/runBatch.ts';
import type { BatchRow } from '../src/core/batchSummary.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { instrumentSnippet } from '../src/instrument/instrumentSnippet.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { recordProgram } from '../src/record/recordProgram.ts';
import { isolatePoolStats } from '../src/sandbox/isolatePool.ts';
import { replayStats } from '../src/engine/replays.ts';
import type { RunResult } from '../src/core/runResult.ts';
import { HOST_SHAPES, type HostShape } from './hostShapes.ts';
import { queueThroughput } from './benchQueue.ts';
import { readHistoryCases, runHistoryCase, type HistoryRow } from './evalDiffHistory.ts';
import type { Mode, RunOptionsInput } from '../src/core/options.ts';

const SECTIONS = ['start', 'cli', 'functions', 'handwritten', 'subset', 'record', 'diff', 'queue'] as const;
/** The sections run when --only is not given: the queue needs a redis-server, so it runs when asked for. */
const DEFAULT_SECTIONS = SECTIONS.filter((s) => s !== 'queue');
type Section = (typeof SECTIONS)[number];

/** The cli section's starts: what runs (bin's arguments, or the bare Node start under them all), and the exit code it must end with. */
const CLI_STARTS: readonly { readonly args: readonly string[] | 'bare node'; readonly exitCode: number }[] = [
  { args: 'bare node', exitCode: 0 },
  { args: ['--version'], exitCode: 0 },
  { args: ['--help'], exitCode: 0 },
  { args: ['run', '--no-such-flag'], exitCode: 2 },
];

/** The programs of the record section (eval/record-programs/), with their arguments. */
const RECORD_PROGRAMS: readonly { readonly program: string; readonly args: readonly string[]; readonly what: string }[] = [
  { program: 'empty/empty.cjs', args: [], what: 'empty: the fixed cost' },
  { program: 'cli/cli.cjs', args: ['--name', 'bench', '--count', '3'], what: 'CommonJS CLI, parses its arguments' },
  { program: 'data/report.cjs', args: [], what: 'CommonJS data processing' },
  { program: 'async/jobs.mjs', args: [], what: 'async job queue, awaits' },
  { program: 'esm/main.mjs', args: [], what: 'ESM, 3 modules, a class' },
  { program: 'ts/main.ts', args: [], what: 'TypeScript, 2 modules, a caught program error' },
];

const here = new URL('.', import.meta.url).pathname;
const root = join(here, '..');
const { values } = parseArgs({
  options: {
    only: { type: 'string', default: DEFAULT_SECTIONS.join(',') },
    queue: { type: 'boolean', default: false },
    out: { type: 'string', default: join(here, 'results', 'bench.json') },
    'start-runs': { type: 'string', default: '30' },
    functions: { type: 'string', default: FUNCTIONS_FILE },
    'functions-limit': { type: 'string' },
    'handwritten-rounds': { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '2' },
    subset: { type: 'string' },
    'memory-snippets': { type: 'string', default: '2000' },
    rows: { type: 'string' },
    'record-runs': { type: 'string', default: '7' },
    'cli-runs': { type: 'string', default: '20' },
    'cli-bin': { type: 'string', default: join(root, 'bin', 'snipexec.cjs') },
    repos: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  // The usage is this file's header comment.
  const lines = readFileSync(new URL(import.meta.url), 'utf8').split('\n');
  const header = lines.slice(0, lines.findIndex((l) => !l.startsWith('//'))).map((l) => l.replace(/^\/\/ ?/, ''));
  process.stdout.write(`${header.join('\n')}\n`);
  process.exit(0);
}
const sections = new Set((values.queue ? 'queue' : values.only).split(',').map((s) => s.trim()).filter((s) => s !== ''));
for (const s of sections) if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`--only: unknown section ${s}; the sections are ${SECTIONS.join(', ')}`);
const wants = (s: Section) => sections.has(s);
const concurrency = positive('concurrency');
const gc = (globalThis as { gc?: () => void }).gc;
const mb = (b: number) => b / 1024 / 1024;
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const f = (x: number, d = 1) => x.toFixed(d);
const lines: string[] = [];
/** Whether this version has environments (src/environments, issue 12); the start rows measure what exists. */
const hasEnvironments = existsSync(join(root, 'src', 'environments'));
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 50);
const result: Record<string, unknown> = {
  generatedAt: new Date().toISOString(), node: process.version, commit: commitOf(root), sections: [...sections],
  loadAverageAtStart: loadavg().map((x) => Math.round(x * 100) / 100),
};

// ---- start: time to start a run (first, so that its cold starts are the process's first runs) ----
if (wants('start')) {
  const start = await startTimes(positive('start-runs'));
  result.startTime = start;
  for (const s of start.snippets) {
    const env = s.environments === null ? 'no environments in this version' : s.environments.length === 0 ? 'no environment' : s.environments.join(' + ');
    lines.push(`| start \`${s.code}\` (none; ${env}; ${s.status}), median / p95 of ${start.runs}; median CPU; runs per snippet | ${f(s.medianMs)} ms / ${f(s.p95Ms)} ms; CPU ${f(s.medianCpuMs)} ms; ${f(s.runsPerSnippet, 2)} runs |`);
  }
  for (const s of start.snippets) {
    lines.push(`| cold start \`${s.code}\` (first call in the process; bundle cache ${s.cold.cache}) | ${f(s.cold.ms)} ms; CPU ${f(s.cold.cpuMs)} ms |`);
  }
}

// ---- cli: a CLI start that runs nothing ----
if (wants('cli')) await cliRows(positive('cli-runs'));

// ---- functions: trace throughput on the function-body set ----
if (wants('functions')) {
  if (!existsSync(values.functions)) {
    lines.push(`| trace throughput, function bodies | absent: ${values.functions} (build it with \`npm run datasets\`) |`);
    result.functions = { absent: values.functions };
  } else {
    const limit = values['functions-limit'] === undefined ? undefined : positive('functions-limit');
    // As written, one execution (--no-drive --scenarios 1): the figure comparable with the versions
    // before drive and exploration; then drive with one execution; then the defaults (drive and exploration).
    // Mode none first (instrumented, nothing injected, one execution): the floor the trace figures are ratios to.
    const n = await throughput(() => readDataset(values.functions), 'none', concurrency, limit, { drive: false, scenarios: 1 });
    result.functionsNone = { file: values.functions, drive: false, scenarios: 1, ...n.figures };
    lines.push(`| none throughput, function bodies, one execution (--mode none --no-drive --scenarios 1; ${n.figures.snippets}, concurrency ${concurrency}) | ${f(n.figures.perSecond)} snippets/s (${f(n.figures.seconds)} s), ${f(n.figures.meanAllRuns, 2)} runs per snippet; ${f(n.figures.perCpuSecond)} per CPU-s |`);
    const t = await throughput(() => readDataset(values.functions), 'trace', concurrency, limit, { drive: false, scenarios: 1 });
    result.functions = { file: values.functions, drive: false, scenarios: 1, ...t.figures };
    lines.push(`| trace throughput, function bodies, as written, one execution (--no-drive --scenarios 1; ${t.figures.snippets}, concurrency ${concurrency}) | ${f(t.figures.perSecond)} snippets/s (${f(t.figures.seconds)} s), ${f(t.figures.meanAllRuns, 2)} runs per snippet; ${f(t.figures.perCpuSecond)} per CPU-s, ${f(t.figures.cpuMsPerRun)} CPU ms per run; latency p50 / p95 ${f(t.figures.latencyP50Ms)} / ${f(t.figures.latencyP95Ms)} ms${environmentNote(t.figures)} |`);
    // The same over worker processes (--processes 2): one process's main thread is what holds it back (eval/README.md).
    const tp = await throughput(() => readDataset(values.functions), 'trace', concurrency, limit, { drive: false, scenarios: 1 }, 2);
    result.functionsProcesses = { file: values.functions, drive: false, scenarios: 1, processes: 2, ...tp.figures };
    lines.push(`| trace throughput, function bodies, as written, one execution, over 2 worker processes (--processes 2; concurrency ${concurrency}) | ${f(tp.figures.perSecond)} snippets/s (${f(tp.figures.seconds)} s, the workers' start included); ${f(tp.figures.perCpuSecond)} per CPU-s (the workers' CPU included) |`);
    const d = await throughput(() => readDataset(values.functions), 'trace', concurrency, limit, { scenarios: 1 });
    result.functionsDrive = { file: values.functions, drive: true, scenarios: 1, ...d.figures };
    lines.push(`| trace throughput, function bodies, drive, one execution (--scenarios 1) | ${f(d.figures.perSecond)} snippets/s (${f(d.figures.seconds)} s), ${f(d.figures.meanAllRuns, 2)} runs per snippet; ${f(d.figures.perCpuSecond)} per CPU-s |`);
    const e = await throughput(() => readDataset(values.functions), 'trace', concurrency, limit, {});
    result.functionsExplore = { file: values.functions, drive: true, scenarios: 'default', ...e.figures };
    // Targets (issue 30): as written ≥ 100 snippets/s, defaults ≥ 40 snippets/s; each beside none, as the share of none's rate.
    const ratio = (x: ThroughputFigures) => ({ perSecond: x.perSecond / n.figures.perSecond, perCpuSecond: x.perCpuSecond / n.figures.perCpuSecond });
    result.functionsRatiosToNone = { asWritten: ratio(t.figures), drive: ratio(d.figures), defaults: ratio(e.figures) };
    lines.push(`| trace throughput as a share of none's, as written / drive / defaults (snippets/s; per CPU-s) | ${f(ratio(t.figures).perSecond)} / ${f(ratio(d.figures).perSecond)} / ${f(ratio(e.figures).perSecond)}; ${f(ratio(t.figures).perCpuSecond)} / ${f(ratio(d.figures).perCpuSecond)} / ${f(ratio(e.figures).perCpuSecond)} |`);
    lines.push(`| trace throughput, function bodies, drive and exploration (the defaults) | ${f(e.figures.perSecond)} snippets/s (${f(e.figures.seconds)} s), ${f(e.figures.meanAllRuns, 2)} runs per snippet; ${f(e.figures.perCpuSecond)} per CPU-s; ${f(e.figures.meanRuns, 2)} runs per snippet in the first scenario; ${f(e.figures.scenariosTried)} scenarios tried per snippet beyond the first, ${f(e.figures.msPerScenario)} wall ms each |`);
  }
}

// ---- handwritten: trace throughput on datasets/handwritten, with its parts ----
if (wants('handwritten')) {
  const hand: DatasetItem[] = [];
  for await (const item of readHandwritten()) hand.push(item);
  const rounds = positive('handwritten-rounds');
  const t = await throughput(() => cycle(hand, hand.length * rounds), 'trace', concurrency);
  const parts = new Map<string, BatchRow[]>();
  for (const row of t.rows) {
    const part = row.id.split('/')[0] ?? '';
    parts.set(part, [...(parts.get(part) ?? []), row]);
  }
  const byPart = Object.fromEntries([...parts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([part, rows]) => {
    const ms = rows.map((r) => r.elapsedMs).sort((a, b) => a - b);
    const withEnv = hasEnvironments ? rows.filter((r) => (environmentsOf(r) ?? []).length > 0).length : null;
    return [part, { snippets: rows.length, meanMs: mean(ms), p95Ms: percentile(ms, 0.95), withEnvironment: withEnv }];
  }));
  result.handwritten = { set: hand.length, rounds, ...t.figures, parts: byPart };
  lines.push(`| trace throughput, datasets/handwritten (${hand.length} × ${rounds}, concurrency ${concurrency}) | ${f(t.figures.perSecond)} snippets/s (${f(t.figures.seconds)} s), ${f(t.figures.meanAllRuns, 2)} runs per snippet; ${f(t.figures.perCpuSecond)} per CPU-s, ${f(t.figures.cpuMsPerRun)} CPU ms per run${environmentNote(t.figures)} |`);
  lines.push(`| handwritten per part, mean ms per snippet (runs with an environment) | ${Object.entries(byPart).map(([p, v]) => `${p} ${f(v.meanMs, 0)}${hasEnvironments ? ` (${v.withEnvironment}/${v.snippets})` : ''}`).join(', ')} |`);
}

// ---- subset: throughput, latency, overhead, memory and host work on a fixed subset ----
if (wants('subset')) await subsetRows();

// ---- queue: batch --queue with 1 and 2 workers against a local batch ----
if (wants('queue')) {
  const q = await queueThroughput(values.functions, values['functions-limit'] ? positive('functions-limit') : 300, concurrency, { drive: false, scenarios: 1 });
  result.queue = q;
  lines.push(`| trace, function bodies as written (--no-drive --scenarios 1), ${q.snippets} snippets, local batch at concurrency ${q.concurrency} | ${f(q.local.perSecond)} snippets/s (${f(q.local.seconds)} s), ${f(q.local.runsPerSnippet, 2)} runs per snippet |`);
  for (const w of q.workers) lines.push(`| the same through the queue: ${w.workers} worker process${w.workers === 1 ? '' : 'es'} at concurrency ${q.concurrency} each, local redis-server | ${f(w.perSecond)} snippets/s (${f(w.seconds)} s), ${f(w.runsPerSnippet, 2)} runs per snippet |`);
  lines.push(`| queue overhead per job (1 worker's time − the local batch's, over the snippets) | ${f(q.overheadMsPerJob)} ms |`);
}

// ---- record: recording overhead on small real programs ----
if (wants('record')) await recordRows(positive('record-runs'));

// ---- diff: time per changed function on the real-history set ----
if (wants('diff')) {
  const rows: HistoryRow[] = [];
  for (const c of readHistoryCases()) rows.push(await runHistoryCase(c, values.repos));
  const perFunction = rows.filter((r) => r.functions > 0).map((r) => r.elapsedMs / r.functions).sort((a, b) => a - b);
  const runs = rows.reduce((n, r) => n + r.runs, 0);
  const figures = { cases: rows.length, functions: rows.reduce((n, r) => n + r.functions, 0), medianMsPerFunction: percentile(perFunction, 0.5), p95MsPerFunction: percentile(perFunction, 0.95), runsPerCase: runs / Math.max(1, rows.length), edgesPerCase: rows.reduce((n, r) => n + r.edges, 0) / Math.max(1, rows.length) };
  result.diff = figures;
  lines.push(`| diff time per changed function, eval/diff-history (${figures.cases} changes, ${figures.functions} functions, one at a time, ${values.repos ? 'in the repository checkout' : 'the file alone'}), median / p95 | ${f(figures.medianMsPerFunction / 1000)} s / ${f(figures.p95MsPerFunction / 1000)} s; ${f(figures.runsPerCase)} runs and ${f(figures.edgesPerCase)} edge scenarios per change |`);
}

clearInterval(sampler);
const pool = isolatePoolStats();
result.isolatePool = pool;
lines.push(`| warm isolates (src/sandbox/isolatePool.ts; at most ${pool.maxRuns} runs each) | ${pool.made} made, ${pool.reused} runs in a reused isolate, ${pool.prepared} in a context it had prepared ahead; disposed by reason: ${Object.entries(pool.discarded).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'} |`);
const replays = replayStats();
result.replays = replays;
lines.push(`| runs replayed instead of executed (src/engine/replays.ts; not counted in runs per snippet) | ${replays.pure} that asked no provider, ${replays.learnt} that asked the book for values; ${replays.diverged} replays abandoned (an answer differed) |`);
result.peakRssMb = mb(peakRss);
lines.push(`| peak RSS (whole run) | ${f(mb(peakRss), 0)} MB |`);
result.loadAverageAtEnd = loadavg().map((x) => Math.round(x * 100) / 100);
writeFileSync(values.out, JSON.stringify(result, null, 2) + '\n');
const commit = String(result.commit);
console.log([`| measure (commit ${commit.slice(0, 7)}${commit.endsWith('+uncommitted') ? ' with uncommitted changes' : ''}, ${process.version}) | value |`, '|---|---|', ...lines].join('\n'));
console.log(`load average at start / end: ${(result.loadAverageAtStart as number[]).join(' ')} / ${(result.loadAverageAtEnd as number[]).join(' ')}; written to ${values.out}`);

// ---------------------------------------------------------------------------------------------

interface StartSnippet {
  readonly code: string;
  readonly status: string;
  /** The environments the run loaded; null when this version's results have no such field. */
  readonly environments: readonly string[] | null;
  readonly cold: { readonly ms: number; readonly cpuMs: number; readonly cache: string; readonly bundlesWritten: number };
  readonly medianMs: number;
  /** CPU time of this process (all its threads, the isolates' included) per run: less sensitive to other processes' load than wall time. */
  readonly medianCpuMs: number;
  readonly p95CpuMs: number;
  readonly p95Ms: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly samplesMs: readonly number[];
  /** Isolate runs per call (exploration's included), over the measured calls. */
  readonly runsPerSnippet: number;
}

/** Wall time of runSnippet in mode none on three trivial snippets: cold, then warm (median, p95). */
async function startTimes(runs: number): Promise<{ runs: number; cacheDir: string; snippets: StartSnippet[] }> {
  const codes = ['1;', 'document.title;', "$('#x');"];
  const cacheDir = join(root, 'node_modules', '.cache', 'snipexec');
  const timed = async (code: string): Promise<{ ms: number; cpuMs: number; r: RunResult }> => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await runSnippet(code, { mode: 'none', lang: 'js' });
    return { ms: performance.now() - t0, cpuMs: cpuMsSince(c0), r };
  };
  const cold: { ms: number; cpuMs: number; cache: string; bundlesWritten: number }[] = [];
  const last = new Map<string, RunResult>();
  for (const code of codes) {
    const before = cacheStamps(cacheDir);
    const { ms, cpuMs, r } = await timed(code);
    const after = cacheStamps(cacheDir);
    const written = [...after].filter(([name, mtime]) => before.get(name) !== mtime).length;
    const loaded = environmentsOf(r);
    const cache = loaded === null || loaded.length === 0 ? 'not used' : written > 0 ? `cold (${written} bundle${written === 1 ? '' : 's'} built)` : 'warm';
    cold.push({ ms, cpuMs, cache, bundlesWritten: written });
  }
  for (const code of codes) await timed(code); // warm-up
  const samples = codes.map(() => [] as number[]);
  const cpu = codes.map(() => [] as number[]);
  const runCounts = codes.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [k, code] of codes.entries()) {
      const { ms, cpuMs, r } = await timed(code);
      samples[k]?.push(ms);
      cpu[k]?.push(cpuMs);
      runCounts[k]?.push(allRuns(r));
      last.set(code, r);
    }
  }
  return {
    runs, cacheDir,
    snippets: codes.map((code, k) => {
      const sorted = [...(samples[k] ?? [])].sort((a, b) => a - b);
      const sortedCpu = [...(cpu[k] ?? [])].sort((a, b) => a - b);
      const r = last.get(code);
      return {
        code, status: r ? statusOf(r) : 'not run', environments: r ? environmentsOf(r) : null, cold: cold[k] ?? { ms: 0, cpuMs: 0, cache: 'not run', bundlesWritten: 0 },
        medianMs: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95), medianCpuMs: percentile(sortedCpu, 0.5), p95CpuMs: percentile(sortedCpu, 0.95), minMs: sorted[0] ?? 0, maxMs: sorted.at(-1) ?? 0,
        samplesMs: sorted.map((x) => Math.round(x * 10) / 10),
        runsPerSnippet: mean(runCounts[k] ?? []),
      };
    }),
  };
}

/** The environments a result says it loaded; null in a version without environments (before issue 12). */
function environmentsOf(r: RunResult | BatchRow): readonly string[] | null {
  if (!hasEnvironments) return null;
  return (r as { environments?: { loaded?: readonly string[] } }).environments?.loaded ?? [];
}

/** `; environments: browser 60, jquery 30` — how many snippets of a batch loaded each environment. */
function environmentNote(t: ThroughputFigures): string {
  if (!hasEnvironments) return '';
  const used = Object.entries(t.environments).sort(([, a], [, b]) => b - a);
  if (used.length === 0) return '; no environments loaded';
  const { loaded, none } = t.byEnvironment;
  const pct = (100 * loaded.elapsedMs) / Math.max(1, loaded.elapsedMs + none.elapsedMs);
  return `; environments loaded: ${used.map(([e, n]) => `${e} ${n}`).join(', ')} (by ${loaded.snippets} snippets, ${f(pct, 0)} % of the snippets' summed time)`;
}

/** The isolate runs a result cost: its first scenario's and exploration's. */
function allRuns(r: RunResult | BatchRow): number {
  return r.runs + (r.explored?.runs ?? 0);
}

function statusOf(r: RunResult): string {
  const e = r.errors[0];
  return e ? `${r.status}: ${e.type}` : r.status;
}

function cacheStamps(dir: string): Map<string, number> {
  const stamps = new Map<string, number>();
  if (!existsSync(dir)) return stamps;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    try { stamps.set(name, statSync(join(dir, name)).mtimeMs); } catch { /* removed meanwhile */ }
  }
  return stamps;
}

async function* cycle(from: readonly DatasetItem[], n: number): AsyncGenerator<DatasetItem> {
  for (let i = 0; i < n; i++) {
    const item = from[i % from.length] as DatasetItem;
    yield { ...item, id: `${item.id}#${i}` };
  }
}

interface RowsShare {
  readonly snippets: number;
  readonly runs: number;
  readonly elapsedMs: number;
}

interface ThroughputFigures {
  readonly snippets: number;
  readonly seconds: number;
  readonly perSecond: number;
  /** Snippets per second of this process's CPU time (all threads): steadier than perSecond when other processes load the machine. */
  readonly cpuSeconds: number;
  readonly perCpuSecond: number;
  /** CPU time per isolate run (the batch's CPU time over the runs of all its snippets). */
  readonly cpuMsPerRun: number;
  /** How many snippets loaded each environment (in versions with environments). */
  readonly environments: Record<string, number>;
  /** The snippets that loaded an environment and those that did not: count, runs and wall time (the sum of their elapsedMs). */
  readonly byEnvironment: { readonly loaded: RowsShare; readonly none: RowsShare };
  readonly latencyP50Ms: number;
  readonly latencyP95Ms: number;
  readonly statuses: Record<string, number>;
  readonly meanRuns: number;
  /** Runs per snippet, exploration's included: the isolate executions a snippet cost. */
  readonly meanAllRuns: number;
  readonly scenariosTried: number;
  readonly msPerScenario: number;
}

async function throughput(items: () => AsyncIterable<DatasetItem>, mode: Mode, c: number, limit?: number, options: Omit<RunOptionsInput, 'mode'> = {}, processes = 1): Promise<{ figures: ThroughputFigures; rows: BatchRow[] }> {
  const rows: BatchRow[] = [];
  const c0 = process.cpuUsage();
  const children0 = childrenCpuMs();
  const started = performance.now();
  await runBatch(items(), { mode, ...options }, { concurrency: c, processes, ...(limit ? { limit } : {}) }, (p) => { rows.push(p.last); });
  const seconds = (performance.now() - started) / 1000;
  // With worker processes, their CPU too (they have ended and been waited for when runBatch returns).
  const cpuSeconds = (cpuMsSince(c0) + (processes > 1 ? (childrenCpuMs() ?? 0) - (children0 ?? 0) : 0)) / 1000;
  const environments: Record<string, number> = {};
  for (const r of rows) for (const e of environmentsOf(r) ?? []) environments[e] = (environments[e] ?? 0) + 1;
  const share = (xs: readonly BatchRow[]): RowsShare => ({ snippets: xs.length, runs: xs.reduce((n, r) => n + r.runs, 0), elapsedMs: xs.reduce((n, r) => n + r.elapsedMs, 0) });
  const loaded = rows.filter((r) => (environmentsOf(r) ?? []).length > 0);
  const runs = rows.reduce((n, r) => n + r.runs, 0);
  if (values.rows) appendFileSync(values.rows, rows.map((r) => JSON.stringify({ id: r.id, status: r.status, runs: r.runs, elapsedMs: r.elapsedMs, environments: environmentsOf(r) })).join('\n') + '\n');
  const ms = rows.map((r) => r.elapsedMs).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return {
    rows,
    figures: {
      snippets: rows.length, seconds, perSecond: rows.length / seconds, cpuSeconds, perCpuSecond: rows.length / cpuSeconds, cpuMsPerRun: (cpuSeconds * 1000) / Math.max(1, runs), environments,
      byEnvironment: { loaded: share(loaded), none: share(rows.filter((r) => !loaded.includes(r))) },
      latencyP50Ms: percentile(ms, 0.5), latencyP95Ms: percentile(ms, 0.95), statuses, meanRuns: mean(rows.map((r) => r.runs)), meanAllRuns: mean(rows.map(allRuns)),
      // Exploration: the scenarios tried beyond the first, and the wall time per scenario (the snippet's time beyond its first scenario's share).
      scenariosTried: mean(rows.map((r) => (r.explored ? r.explored.tried - 1 : 0))),
      msPerScenario: (() => {
        const tried = rows.reduce((n, r) => n + (r.explored ? r.explored.tried - 1 : 0), 0);
        const extraRuns = rows.reduce((n, r) => n + (r.explored?.runs ?? 0), 0);
        const allRuns = rows.reduce((n, r) => n + r.runs + (r.explored?.runs ?? 0), 0);
        const elapsed = rows.reduce((n, r) => n + r.elapsedMs, 0);
        return tried === 0 || allRuns === 0 ? 0 : (elapsed * (extraRuns / allRuns)) / tried;
      })(),
    },
  };
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

function positive(name: 'start-runs' | 'functions-limit' | 'handwritten-rounds' | 'concurrency' | 'record-runs' | 'cli-runs'): number {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: a positive integer, not ${String(values[name])}`);
  return n;
}

function commitOf(dir: string): string {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!eval/bench.ts'], { cwd: dir, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head}+uncommitted` : head;
  } catch {
    return 'unknown';
  }
}

async function subsetRows(): Promise<void> {
  const items: DatasetItem[] = [];
  for await (const item of values.subset ? readDataset(values.subset) : readHandwritten()) items.push(item);
  const subsetName = values.subset ?? 'datasets/handwritten';
  const batch = async (mode: Mode, c: number, rounds: number) => throughput(() => cycle(items, items.length * rounds), mode, c);

  // Warm-up: module loading and JIT, not measured.
  await batch('trace', 2, 1);

  const trace1 = await batch('trace', 1, 3);
  const trace2 = await batch('trace', 2, 3);
  const none2 = await batch('none', 2, 3);
  const dummy2 = await batch('dummy', 2, 3);
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
      await runSnippet(r.program, { mode: 'none', drive: false, ...(item.lang ? { lang: item.lang } : {}) });
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
  await runBatch(cycle(items, memorySnippets), { mode: 'trace' }, { concurrency: 2 }, () => {
    if (++done % 100 === 0) {
      gc?.();
      heap.push(process.memoryUsage().heapUsed);
    }
  });

  // Host work per line: parse and instrument generated snippets of 5,000 and 20,000 lines.
  const hostWork: Record<string, Record<number, number>> = {};
  for (const shape of ['ordinary', 'ifs'] as HostShape[]) {
    hostWork[shape] = {};
    for (const n of [5_000, 20_000]) {
      const code = HOST_SHAPES[shape](n);
      gc?.();
      const t0 = performance.now();
      const parsed = parseSnippet(code, 'js', undefined, { statements: Infinity, nodes: Infinity }); // past the limits a run refuses: this measures the passes
      instrumentSnippet(parsed.ast, parsed.code, { lang: 'js', operatorHooks: true });
      (hostWork[shape] as Record<number, number>)[n] = ((performance.now() - t0) * 1000) / n;
    }
  }
  const tenth = Math.max(1, Math.floor(heap.length / 10));
  const heapFirst = mb(mean(heap.slice(0, tenth)));
  const heapLast = mb(mean(heap.slice(-tenth)));

  const subset = {
    subset: subsetName, snippets: items.length,
    traceSnippetsPerSecondC1: trace1.figures.perSecond, traceSnippetsPerSecondC2: trace2.figures.perSecond,
    noneSnippetsPerSecondC2: none2.figures.perSecond, dummySnippetsPerSecondC2: dummy2.figures.perSecond,
    traceOverNoneTime: none2.figures.perSecond / trace2.figures.perSecond,
    runsPerSnippet: { traceC1: trace1.figures.meanAllRuns, traceC2: trace2.figures.meanAllRuns, noneC2: none2.figures.meanAllRuns, dummyC2: dummy2.figures.meanAllRuns },
    latencyP50Ms: percentile(latencies, 0.5), latencyP95Ms: percentile(latencies, 0.95),
    msPerInjectedValue: injected === 0 ? 0 : traceMs / injected,
    overhead: { programs, instrumentedMs: instrumentedMs / Math.max(1, programs * 3), bareMs: bareMs / Math.max(1, programs * 3), ratio: bareMs === 0 ? 0 : instrumentedMs / bareMs },
    hostWorkMicrosecondsPerLine: hostWork,
    memory: { snippets: memorySnippets, gcExposed: gc !== undefined, heapFirstTenthMb: heapFirst, heapLastTenthMb: heapLast, growthMb: heapLast - heapFirst, heapMbEvery100: heap.map((b) => Math.round(mb(b) * 10) / 10) },
  };
  Object.assign(result, subset); // the same top-level fields as before the sections
  lines.push(
    `| trace throughput, concurrency 1 (${subsetName}, ${items.length} × 3) | ${f(subset.traceSnippetsPerSecondC1)} snippets/s, ${f(trace1.figures.meanAllRuns, 2)} runs per snippet |`,
    `| trace throughput, concurrency 2 | ${f(subset.traceSnippetsPerSecondC2)} snippets/s, ${f(trace2.figures.meanAllRuns, 2)} runs per snippet |`,
    `| none throughput, concurrency 2 | ${f(subset.noneSnippetsPerSecondC2)} snippets/s, ${f(none2.figures.meanAllRuns, 2)} runs per snippet |`,
    `| dummy throughput, concurrency 2 | ${f(subset.dummySnippetsPerSecondC2)} snippets/s, ${f(dummy2.figures.meanAllRuns, 2)} runs per snippet |`,
    `| trace time / none time (concurrency 2) | ${f(subset.traceOverNoneTime, 2)}× |`,
    `| trace latency p50 / p95 (concurrency 1) | ${f(subset.latencyP50Ms)} ms / ${f(subset.latencyP95Ms)} ms |`,
    `| time per injected value (trace) | ${f(subset.msPerInjectedValue, 2)} ms |`,
    `| instrumented / bare run of the emitted program (${programs} programs) | ${f(subset.overhead.instrumentedMs, 2)} ms / ${f(subset.overhead.bareMs, 2)} ms = ${f(subset.overhead.ratio, 2)}× |`,
    `| host work per line (parse + instrument), 5k / 20k lines | ordinary ${f(hostWork.ordinary?.[5_000] ?? 0, 0)} / ${f(hostWork.ordinary?.[20_000] ?? 0, 0)} µs, if-heavy ${f(hostWork.ifs?.[5_000] ?? 0, 0)} / ${f(hostWork.ifs?.[20_000] ?? 0, 0)} µs |`,
    `| heap after GC over ${memorySnippets} snippets, first / last tenth | ${f(heapFirst)} MB / ${f(heapLast)} MB (${heapLast - heapFirst >= 0 ? '+' : ''}${f(heapLast - heapFirst)} MB)${gc ? '' : ' (no --expose-gc)'} |`,
  );
}

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


/** Wall and CPU time of one run of a program, plain or recorded. */
interface ProgramRun {
  readonly ms: number;
  /** CPU ms of the program's process and of this one (recordProgram's own work: the preload lookup, reading the trace); null off Linux. */
  readonly cpuMs: number | null;
  readonly exitCode: number;
}

interface RecordRow {
  readonly program: string;
  readonly what: string;
  readonly plainMedianMs: number;
  readonly recordedMedianMs: number;
  readonly ratio: number;
  readonly plainMedianCpuMs: number | null;
  readonly recordedMedianCpuMs: number | null;
  readonly cpuRatio: number | null;
  readonly calls: number;
  readonly traceBytes: number;
  /** Recorded CPU beyond plain, less the empty program's difference, per call: what one recorded call costs. Only with 1,000 calls or more. */
  readonly cpuUsPerCall: number | null;
  /** Whether every recorded run exited with the plain runs' code. */
  readonly sameExitCode: boolean;
  readonly warmUp: { readonly plain: ProgramRun; readonly recorded: ProgramRun };
  readonly plainMs: readonly number[];
  readonly recordedMs: readonly number[];
}

/** The cli section: each start of CLI_STARTS twice to warm up (the compile cache), then `runs` interleaved rounds. */
async function cliRows(runs: number): Promise<void> {
  const bin = values['cli-bin'];
  const samples = CLI_STARTS.map(() => [] as ProgramRun[]);
  for (let round = -2; round < runs; round++) {
    for (const [i, { args }] of CLI_STARTS.entries()) {
      const run = await timedRun(() => runNode(args === 'bare node' ? ['--no-node-snapshot', '-e', '0'] : ['--no-node-snapshot', bin, ...args]));
      if (round >= 0) samples[i]?.push(run);
    }
  }
  const rows = CLI_STARTS.map(({ args, exitCode }, i) => {
    const ms = (samples[i] ?? []).map((s) => s.ms).sort((a, b) => a - b);
    const cpu = (samples[i] ?? []).map((s) => s.cpuMs);
    const medianCpuMs = cpu.every((x) => x !== null) ? percentile([...cpu].sort((a, b) => a - b), 0.5) : null;
    return { args, medianMs: percentile(ms, 0.5), p95Ms: percentile(ms, 0.95), medianCpuMs, exitCodes: [...new Set(samples[i]?.map((s) => s.exitCode))], expectedExitCode: exitCode, samplesMs: ms.map((x) => Math.round(x * 10) / 10) };
  });
  result.cli = { bin, runs, targetVersionMs: 150, starts: rows };
  for (const r of rows) {
    const exit = r.exitCodes.length === 1 && r.exitCodes[0] === r.expectedExitCode ? `exit ${r.expectedExitCode}` : `EXIT ${r.exitCodes.join(', ')}, expected ${r.expectedExitCode}`;
    const what = r.args === 'bare node' ? '`node --no-node-snapshot -e 0`, the floor' : `\`snipexec ${r.args.join(' ')}\``;
    lines.push(`| cli ${what} (${exit}), wall median / p95 of ${runs}${r.args[0] === '--version' ? ' (target < 150 ms)' : ''}; median CPU | ${f(r.medianMs)} ms / ${f(r.p95Ms)} ms${r.medianCpuMs === null ? '' : `; CPU ${f(r.medianCpuMs, 0)} ms`} |`);
  }
}

/** The record section: each program of eval/record-programs/ plain and recorded, interleaved, from a temp copy. */
async function recordRows(runs: number): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'snipexec-bench-record-'));
  const rows: RecordRow[] = [];
  try {
    cpSync(join(here, 'record-programs'), work, { recursive: true });
    for (const { program, args, what } of RECORD_PROGRAMS) {
      const file = join(work, program);
      let traced: { calls: number; traceBytes: number } = { calls: 0, traceBytes: 0 };
      const recorded = () => timedRun(async () => {
        const r = await recordProgram(file, args, { stdio: 'ignore' });
        traced = { calls: r.calls, traceBytes: statSync(r.tracePath).size };
        return r.exitCode;
      });
      const plain = () => timedRun(() => runPlain(file, args));
      const warmUp = { plain: await plain(), recorded: await recorded() };
      const samples: { plain: ProgramRun; recorded: ProgramRun }[] = [];
      for (let i = 0; i < runs; i++) samples.push({ plain: await plain(), recorded: await recorded() });
      const median = (xs: readonly number[]) => percentile([...xs].sort((a, b) => a - b), 0.5);
      const medianCpu = (xs: readonly (number | null)[]) => (xs.every((x) => x !== null) ? median(xs as number[]) : null);
      const plainMs = samples.map((s) => s.plain.ms);
      const recordedMs = samples.map((s) => s.recorded.ms);
      const plainMedianCpuMs = medianCpu(samples.map((s) => s.plain.cpuMs));
      const recordedMedianCpuMs = medianCpu(samples.map((s) => s.recorded.cpuMs));
      const empty = rows[0];
      const fixedCpuMs = empty && empty.recordedMedianCpuMs !== null && empty.plainMedianCpuMs !== null ? empty.recordedMedianCpuMs - empty.plainMedianCpuMs : null;
      rows.push({
        program, what, plainMedianMs: median(plainMs), recordedMedianMs: median(recordedMs), ratio: median(recordedMs) / median(plainMs),
        plainMedianCpuMs, recordedMedianCpuMs, cpuRatio: plainMedianCpuMs !== null && plainMedianCpuMs > 0 && recordedMedianCpuMs !== null ? recordedMedianCpuMs / plainMedianCpuMs : null,
        ...traced,
        cpuUsPerCall: traced.calls >= 1_000 && fixedCpuMs !== null && plainMedianCpuMs !== null && recordedMedianCpuMs !== null ? ((recordedMedianCpuMs - plainMedianCpuMs - fixedCpuMs) * 1000) / traced.calls : null,
        sameExitCode: [warmUp, ...samples].every((s) => s.plain.exitCode === s.recorded.exitCode), warmUp,
        plainMs: plainMs.map((x) => Math.round(x * 10) / 10), recordedMs: recordedMs.map((x) => Math.round(x * 10) / 10),
      });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const programs = rows.slice(1); // without empty/, whose ratio is the fixed cost alone
  const medianOf = (xs: readonly number[]) => percentile([...xs].sort((a, b) => a - b), 0.5);
  const medianRatio = medianOf(programs.map((r) => r.ratio));
  const cpuRatios = programs.map((r) => r.cpuRatio).filter((x) => x !== null);
  const medianCpuRatio = cpuRatios.length === programs.length ? medianOf(cpuRatios) : null;
  result.record = { runs, target: 3, medianRatio, medianCpuRatio, programs: rows };
  const cpu = (a: number | null, b: number | null, ratio: number | null) => (a === null || b === null || ratio === null ? '' : `; CPU ${f(a, 0)} / ${f(b, 0)} ms = ${f(ratio, 2)}×`);
  const first = rows[0];
  if (first) lines.push(`| record, first recorded run of the section (\`${first.program}\`; builds the preload bundle when its cache is cold) | ${f(first.warmUp.recorded.ms)} ms; plain ${f(first.warmUp.plain.ms)} ms |`);
  for (const r of rows) {
    const perCall = r.cpuUsPerCall === null ? '' : `; ≈ ${f(r.cpuUsPerCall)} CPU µs per call beyond the fixed cost`;
    lines.push(`| record \`${r.program}\` (${r.what}), median of ${runs}, plain / recorded | ${f(r.plainMedianMs)} / ${f(r.recordedMedianMs)} ms = ${f(r.ratio, 2)}×${cpu(r.plainMedianCpuMs, r.recordedMedianCpuMs, r.cpuRatio)}; ${r.calls} calls, ${f(r.traceBytes / 1024)} KiB trace${perCall}${r.sameExitCode ? '' : '; EXIT CODES DIFFER'} |`);
  }
  lines.push(`| record overhead, median ratio over the ${programs.length} programs (target ≤ 3×) | wall ${f(medianRatio, 2)}×${medianCpuRatio === null ? '' : `; CPU ${f(medianCpuRatio, 2)}×`} |`);
}

/** Times one run: wall ms, and CPU ms of this process and of the children it waited for meanwhile. */
async function timedRun(run: () => Promise<number>): Promise<ProgramRun> {
  const children0 = childrenCpuMs();
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  const exitCode = await run();
  const ms = performance.now() - t0;
  const children1 = childrenCpuMs();
  return { ms, cpuMs: children0 === null || children1 === null ? null : children1 - children0 + cpuMsSince(self0), exitCode };
}

/** CPU ms of this process's children that have exited and been waited for (Linux: cutime + cstime of /proc/self/stat, in 10 ms ticks); null elsewhere. */
function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state) on
    return (Number(fields[13]) + Number(fields[14])) * 10; // fields 16 and 17; USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** `node PROGRAM ARGS` with the Node running the bench, output dropped: its exit code. */
function runPlain(file: string, args: readonly string[]): Promise<number> {
  return runNode([file, ...args]);
}

/** The Node running the bench with `args`, output dropped: its exit code. */
function runNode(args: readonly string[]): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: 'ignore' });
    child.on('error', fail);
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 : 0)));
  });
}
