// `npm run bench-peer -- --fakeium DIR`: snipexec against Fakeium (a peer: JavaScript in isolated-vm, one
// execution, every unknown a mock), snippet by snippet, printed as a table and written to
// eval/results/bench-peer.json (or --out). DIR is a Fakeium that is already built (DIR/dist/index.js);
// this script never builds or fetches it.
// Usage: npm run bench-peer -- --fakeium DIR [--out FILE] [--so-file FILE] [--so-limit N] [--warmup N]
//                               [--timeout-ms MS] [--sets so,browser]
// The sets, fixed (--sets picks some; both by default):
//   so       the first --so-limit rows (default 108) of ../shared/datasets/so-node-edits.jsonl (or --so-file), in file
//            order, whose code V8 compiles as a classic script (Fakeium's sourceType 'script'; the rest,
//            mostly `import`, `await` at top level or TypeScript, are skipped and counted);
//   browser  datasets/handwritten dom, jquery and react (30): the JSX is given to Fakeium compiled by
//            esbuild to React.createElement calls (outside its timing), to snipexec as written.
// Each snippet runs, one at a time, through three sides, in an order that rotates from snippet to
// snippet so load falls on all alike: Fakeium (eval/benchPeerFakeium.ts, a child process of its own,
// so that its isolated-vm 6 and our isolated-vm 7 never share a process; a fresh `new Fakeium()` per
// snippet, and the time around its run() alone, which the child measures and reports as JSON), and
// snipexec's runSnippet in this process twice: one execution as written (trace, drive false, scenarios 1)
// and the defaults. --warmup snippets of each set (default 3), spread evenly over it (so the browser set's
// warm-up loads the DOM, jQuery and React environments once), run once on every side untimed first. Both tools get the same per-execution budget (--timeout-ms, default 5,000, snipexec's default).
// Times are in-process wall clock around the call (process start excluded), with a GC before each:
// compare runs of the same machine and load only; the process CPU time around the same calls (user +
// system, isolate threads included) is given beside, less sensitive to other load on the machine. The child also runs each snippet on one Fakeium
// instance kept warm (its isolate reused), reported beside, not in the ratios.
import { fork, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Script } from 'node:vm';
import type { DatasetItem } from '../src/batch/readDataset.ts';
import type { RunResult } from '../src/core/runResult.ts';
import type { PeerAnswer, PeerRequest } from './benchPeerFakeium.ts';

const here = new URL('.', import.meta.url).pathname;
const root = join(here, '..');
const { values } = parseArgs({
  options: {
    fakeium: { type: 'string' },
    out: { type: 'string', default: join(here, 'results', 'bench-peer.json') },
    'so-file': { type: 'string' },
    sets: { type: 'string', default: 'so,browser' },
    'so-limit': { type: 'string', default: '108' },
    warmup: { type: 'string', default: '3' },
    'timeout-ms': { type: 'string', default: '5000' },
  },
});

// Checked before anything heavy loads, so a missing Fakeium is said at once.
if (values.fakeium === undefined || values.fakeium === '') {
  fail('--fakeium DIR is required: the directory of a built Fakeium (this script reads DIR/dist/index.js and never builds it)');
}
const fakeiumDir = resolve(values.fakeium);
const fakeiumEntry = join(fakeiumDir, 'dist', 'index.js');
if (!existsSync(fakeiumEntry)) {
  fail(`--fakeium ${values.fakeium}: ${fakeiumEntry} is absent; give the directory of a Fakeium that is already built (its dist/index.js)`);
}
const soLimit = positive('so-limit');
const warmup = positive('warmup', true);
const timeoutMs = positive('timeout-ms');
const SET_NAMES = ['so', 'browser'];
const wanted = new Set(values.sets.split(',').map((s) => s.trim()).filter((s) => s !== ''));
for (const s of wanted) if (!SET_NAMES.includes(s)) fail(`--sets: unknown set ${s}; the sets are ${SET_NAMES.join(', ')}`);

const { readDataset } = await import('../src/batch/readDataset.ts');
const { HANDWRITTEN_DIR, SHARED_DIR, readHandwritten } = await import('../datasets/loadDatasets.ts');
const { runSnippet } = await import('../src/engine/runSnippet.ts');
const { figures } = await import('./summarizeRuns.ts');
const { transformSync } = await import('esbuild');

/** One snippet of a set: what snipexec runs, and what Fakeium runs (the same, JSX compiled). */
interface PeerItem extends DatasetItem {
  readonly fakeiumCode: string;
}
interface PeerSet {
  readonly name: string;
  readonly describe: string;
  readonly items: readonly PeerItem[];
  readonly skipped: number;
}
const SIDES = ['fakeium', 'one', 'defaults'] as const;
type Side = (typeof SIDES)[number];
/** snipexec's two configurations: as written, one execution; and the defaults. */
const CONFIGS = {
  one: { mode: 'trace', drive: false, scenarios: 1, timeoutMs },
  defaults: { mode: 'trace', timeoutMs },
} as const;
interface SnipexecRow {
  readonly ms: number;
  readonly cpuMs: number;
  readonly result: RunResult;
}
interface Row {
  readonly id: string;
  readonly fakeium: PeerAnswer;
  readonly one: SnipexecRow;
  readonly defaults: SnipexecRow;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const f = (x: number, d = 1) => x.toFixed(d);
const sets = await loadSets();
const startLoad = loadavg();
const fakeium = await startFakeium();
const result: Record<string, unknown> = {
  generatedAt: new Date().toISOString(), node: process.version, commit: commitOf(root),
  fakeium: { dir: fakeiumDir, version: versionOf(join(fakeiumDir, 'package.json')), isolatedVm: versionOf(join(fakeiumDir, 'node_modules', 'isolated-vm', 'package.json')) },
  snipexecIsolatedVm: versionOf(join(root, 'node_modules', 'isolated-vm', 'package.json')),
  configurations: { one: CONFIGS.one, defaults: CONFIGS.defaults, fakeium: { sourceType: 'script', timeout: timeoutMs, instance: 'new Fakeium() per snippet' } },
  warmup, targets: { one: 1, defaults: 2 },
  loadAverageAtStart: rounded(startLoad),
};
const summaries: Record<string, unknown>[] = [];
const lines: string[] = [];
try {
  for (const set of sets) {
    for (const item of spread(set.items, warmup)) for (const side of SIDES) await runSide(side, item);
    const rows: Row[] = [];
    for (const [i, item] of set.items.entries()) rows.push(await runRotated(item, i));
    const summary = summarize(set, rows);
    summaries.push({ ...summary, rows: rows.map(rowJson) });
    lines.push(...table(summary));
    console.error(`bench-peer: ${set.name} done (${rows.length} snippets)`);
  }
} finally {
  fakeium.stop();
}
result.loadAverageAtEnd = rounded(loadavg());
result.sets = summaries;
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(['| figure | Fakeium | snipexec one execution | snipexec defaults |', '| --- | --- | --- | --- |', ...lines].join('\n'));
console.log(`\nwritten to ${values.out}`);

/** Runs one snippet on every side, starting with a different side each snippet. */
async function runRotated(item: PeerItem, i: number): Promise<Row> {
  const got: Partial<Record<Side, PeerAnswer | SnipexecRow>> = {};
  for (let k = 0; k < SIDES.length; k++) {
    const side = SIDES[(i + k) % SIDES.length]!;
    got[side] = await runSide(side, item);
  }
  return { id: item.id, fakeium: got.fakeium as PeerAnswer, one: got.one as SnipexecRow, defaults: got.defaults as SnipexecRow };
}

async function runSide(side: Side, item: PeerItem): Promise<PeerAnswer | SnipexecRow> {
  if (side === 'fakeium') return fakeium.run({ id: item.id, code: item.fakeiumCode, timeoutMs });
  const options = { ...CONFIGS[side], ...(item.lang ? { lang: item.lang } : {}) };
  gc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const r = await runSnippet(item.code, options);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, result: r };
}

async function loadSets(): Promise<PeerSet[]> {
  const out: PeerSet[] = [];
  const so = wanted.has('so') ? await soSet() : undefined;
  if (so) out.push(so);
  if (wanted.has('browser')) out.push(await browserSet());
  return out;
}

/** The first --so-limit Stack Overflow rows that compile as a script, in file order; undefined when the file is absent. */
async function soSet(): Promise<PeerSet | undefined> {
  const soFile = values['so-file'] ?? join(SHARED_DIR, 'so-node-edits.jsonl');
  if (!existsSync(soFile)) {
    console.error(`bench-peer: ${soFile} is absent; the Stack Overflow set is skipped`);
    return undefined;
  }
  const items: PeerItem[] = [];
  let skipped = 0;
  for await (const item of readDataset(soFile)) {
    if (items.length >= soLimit) break;
    if (compilesAsScript(item.code)) items.push({ ...item, fakeiumCode: item.code });
    else skipped++;
  }
  const file = values['so-file'] ?? '../shared/datasets/so-node-edits.jsonl';
  return { name: 'so', describe: `the first ${items.length} rows of ${file} that V8 compiles as a script (${skipped} before them skipped)`, items, skipped };
}

/** datasets/handwritten dom, jquery and react; Fakeium gets the JSX compiled to React.createElement calls. */
async function browserSet(): Promise<PeerSet> {
  const items: PeerItem[] = [];
  let skipped = 0;
  for (const part of ['dom', 'jquery', 'react']) {
    for await (const item of readHandwritten(HANDWRITTEN_DIR, part)) {
      const fakeiumCode = item.lang === 'jsx' ? transformSync(item.code, { loader: 'jsx' }).code : item.code;
      if (compilesAsScript(fakeiumCode)) items.push({ ...item, fakeiumCode });
      else skipped++;
    }
  }
  return { name: 'browser', describe: `datasets/handwritten dom, jquery and react (${items.length}; JSX compiled by esbuild for Fakeium${skipped > 0 ? `; ${skipped} skipped, not a script` : ''})`, items, skipped };
}

/** Compiles, never runs: whether Fakeium's sourceType 'script' can take the code. */
function compilesAsScript(code: string): boolean {
  try {
    new Script(code, { filename: 'snippet.js' });
    return true;
  } catch {
    return false;
  }
}

interface SideFigures {
  readonly medianMs: number;
  readonly totalMs: number;
  readonly cpuTotalMs: number;
}

function summarize(set: PeerSet, rows: readonly Row[]) {
  const sum = (of: (r: Row) => number) => rows.reduce((a, r) => a + of(r), 0);
  const times = (ms: (r: Row) => number, cpuMs: (r: Row) => number): SideFigures => ({ medianMs: median(rows.map(ms)), totalMs: sum(ms), cpuTotalMs: sum(cpuMs) });
  const counts = (of: (r: Row) => string) => rows.reduce<Record<string, number>>((a, r) => ({ ...a, [of(r)]: (a[of(r)] ?? 0) + 1 }), {});
  const fk = times((r) => r.fakeium.ms, (r) => r.fakeium.cpuMs);
  const fkWarm = times((r) => r.fakeium.warmMs, (r) => r.fakeium.warmCpuMs);
  const side = (name: 'one' | 'defaults') => {
    const t = times((r) => r[name].ms, (r) => r[name].cpuMs);
    const fig = figures(set.name, name, [rows.map((r) => ({ ...r[name].result, id: r.id }))], t.totalMs);
    return {
      ...t,
      ratioTotal: t.totalMs / fk.totalMs, ratioMedian: t.medianMs / fk.medianMs, ratioCpuTotal: t.cpuTotalMs / fk.cpuTotalMs,
      ratioTotalToWarmFakeium: t.totalMs / fkWarm.totalMs,
      lineCoverage: fig.lineCoverage, meanLineCoverage: fig.meanLineCoverage, exploredLineCoverage: fig.exploredLineCoverage,
      fullyExecutedRate: fig.fullyExecutedRate, statusCounts: fig.statusCounts,
      runs: rows.reduce((a, r) => a + r[name].result.runs + (r[name].result.explored?.runs ?? 0), 0),
    };
  };
  return {
    name: set.name, describe: set.describe, snippets: rows.length, skipped: set.skipped,
    fakeium: { ...fk, outcomes: counts((r) => r.fakeium.outcome), events: rows.reduce((a, r) => a + r.fakeium.events, 0), warm: { ...fkWarm, outcomes: counts((r) => r.fakeium.warmOutcome) } },
    one: side('one'),
    defaults: side('defaults'),
  };
}

function table(s: ReturnType<typeof summarize>): string[] {
  const pct = (x: number) => `${f(x * 100)} %`;
  const target = (ratio: number, max: number) => `${f(ratio, 2)}× (target ≤ ${f(max, 1)}×: ${ratio <= max ? 'met' : 'missed'})`;
  const outcomes = Object.entries(s.fakeium.outcomes).map(([k, n]) => `${k} ${n}`).join(', ');
  const statuses = (c: Record<string, number>) => Object.entries(c).map(([k, n]) => `${k} ${n}`).join(', ');
  return [
    `| **${s.name}**: ${s.describe} | | | |`,
    `| median ms per snippet | ${f(s.fakeium.medianMs)} | ${f(s.one.medianMs)} | ${f(s.defaults.medianMs)} |`,
    `| total ms | ${f(s.fakeium.totalMs, 0)} | ${f(s.one.totalMs, 0)} | ${f(s.defaults.totalMs, 0)} |`,
    `| snipexec / Fakeium, total | | ${target(s.one.ratioTotal, 1)} | ${target(s.defaults.ratioTotal, 2)} |`,
    `| snipexec / Fakeium, median | | ${f(s.one.ratioMedian, 2)}× | ${f(s.defaults.ratioMedian, 2)}× |`,
    `| process CPU ms, total; snipexec / Fakeium | ${f(s.fakeium.cpuTotalMs, 0)} | ${f(s.one.cpuTotalMs, 0)}; ${f(s.one.ratioCpuTotal, 2)}× | ${f(s.defaults.cpuTotalMs, 0)}; ${f(s.defaults.ratioCpuTotal, 2)}× |`,
    `| line coverage (covered / measured lines; mean per snippet) | not measured | ${pct(s.one.lineCoverage)}; ${pct(s.one.meanLineCoverage)} | ${pct(s.defaults.lineCoverage)}; ${pct(s.defaults.meanLineCoverage)} (explored ${pct(s.defaults.exploredLineCoverage)}) |`,
    `| outcomes | ${outcomes}; ${s.fakeium.events} events | ${statuses(s.one.statusCounts)} | ${statuses(s.defaults.statusCounts)} |`,
    `| Fakeium warm (one instance, isolate kept): median / total ms; snipexec total / it | ${f(s.fakeium.warm.medianMs)} / ${f(s.fakeium.warm.totalMs, 0)} | ${f(s.one.ratioTotalToWarmFakeium, 2)}× | ${f(s.defaults.ratioTotalToWarmFakeium, 2)}× |`,
  ];
}

function rowJson(r: Row) {
  const snip = (x: SnipexecRow) => ({
    ms: round(x.ms), cpuMs: round(x.cpuMs), status: x.result.status, runs: x.result.runs, lines: { total: x.result.lines.total, covered: x.result.lines.covered },
    lineCoverage: x.result.lineCoverage, ...(x.result.explored ? { exploredLineCoverage: x.result.explored.lineCoverage } : {}),
  });
  return { id: r.id, fakeium: { ...r.fakeium, ms: round(r.fakeium.ms), cpuMs: round(r.fakeium.cpuMs), warmMs: round(r.fakeium.warmMs), warmCpuMs: round(r.fakeium.warmCpuMs) }, one: snip(r.one), defaults: snip(r.defaults) };
}

/** The Fakeium child: one request at a time, each answered with its in-process figures. */
async function startFakeium(): Promise<{ run: (request: PeerRequest) => Promise<PeerAnswer>; stop: () => void }> {
  const child: ChildProcess = fork(join(here, 'benchPeerFakeium.ts'), [fakeiumEntry], {
    execArgv: ['--no-node-snapshot', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let pending: { resolve: (a: PeerAnswer) => void; reject: (e: Error) => void } | undefined;
  let ready: (() => void) | undefined;
  let failure: Error | undefined;
  const failed = new Promise<never>((_, reject) => {
    const end = (why: string) => {
      failure ??= new Error(`bench-peer: the Fakeium child ${why}`);
      pending?.reject(failure);
      reject(failure);
    };
    child.on('message', (m: PeerAnswer | { ready: true } | { error: string }) => {
      if ('error' in m) end(`failed: ${m.error}`);
      else if ('ready' in m) ready?.();
      else {
        const p = pending;
        pending = undefined;
        p?.resolve(m);
      }
    });
    child.on('exit', (code, signal) => end(`exited (${signal ?? code})`));
    child.on('error', (e) => end(`could not run: ${e.message}`));
  });
  failed.catch(() => {});
  await Promise.race([new Promise<void>((r) => { ready = r; }), failed]);
  return {
    run: (request) => {
      if (failure) return Promise.reject(failure);
      return new Promise<PeerAnswer>((resolve, reject) => {
        pending = { resolve, reject: (e) => reject(new Error(`${e.message}, on ${request.id}`)) };
        child.send(request);
      });
    },
    stop: () => {
      failure ??= new Error('bench-peer: stopped');
      child.kill();
    },
  };
}

function fail(message: string): never {
  console.error(`bench-peer: ${message}`);
  process.exit(2);
}

function positive(name: 'so-limit' | 'warmup' | 'timeout-ms', zero = false): number {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < (zero ? 0 : 1)) fail(`--${name} must be a ${zero ? 'non-negative' : 'positive'} integer, got ${values[name]}`);
  return n;
}

/** n items at even steps over the list: the warm-up touches each part of a set. */
function spread<T>(xs: readonly T[], n: number): T[] {
  const k = Math.min(n, xs.length);
  return Array.from({ length: k }, (_, i) => xs[Math.floor((i * xs.length) / k)]!);
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return 0;
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function rounded(xs: readonly number[]): number[] {
  return xs.map((x) => Math.round(x * 100) / 100);
}

function versionOf(packageJson: string): string | null {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

function commitOf(dir: string): string {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: dir, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head}+uncommitted` : head;
  } catch {
    return 'unknown';
  }
}
