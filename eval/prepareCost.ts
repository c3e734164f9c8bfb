// Host CPU of preparing snippets (parse with repair, lower, instrument, generate) and of emitting
// their completed program, per snippet: the first pass over the set (cold: a fresh process) and the
// passes after it (steady state). Nothing runs in an isolate.
//
// Usage: npx node --no-node-snapshot --expose-gc eval/prepareCost.ts [--passes N] [--limit N]
//          [--datasets functions,so-node-edits,handwritten] [--profile FILE] [--digest FILE]
//   --profile FILE  a CPU profile (.cpuprofile) of the steady passes (node:inspector)
//   --prepare-only  no program emitted
//   --digest FILE   one line per snippet: what preparing and emitting gave (the hook's salted name
//                   replaced by HOOK), to compare two checkouts byte for byte
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { FUNCTIONS_FILE, readHandwritten, SHARED_DIR } from '../datasets/loadDatasets.ts';
import { readDataset, type DatasetItem } from '../src/batch/readDataset.ts';
import { parseRunOptions, type RunOptions } from '../src/core/options.ts';
import { HostDeadline } from '../src/core/hostDeadline.ts';
import { prepareSnippet, type PreparedSnippet } from '../src/engine/prepareSnippet.ts';
import { buildProgram, programLayout, type ProgramParts } from '../src/emit/buildProgram.ts';
import type { RenderedDefinitions } from '../src/emit/renderedDefinitions.ts';

const { values } = parseArgs({
  options: {
    passes: { type: 'string', default: '5' },
    limit: { type: 'string' },
    datasets: { type: 'string', default: 'functions,so-node-edits' },
    profile: { type: 'string' },
    digest: { type: 'string' },
    'prepare-only': { type: 'boolean', default: false },
  },
});

const SETS: Record<string, () => AsyncIterable<DatasetItem>> = {
  functions: () => readDataset(FUNCTIONS_FILE),
  'so-node-edits': () => readDataset(join(SHARED_DIR, 'so-node-edits.jsonl')),
  handwritten: () => readHandwritten(),
};
const items: (DatasetItem & { dataset: string })[] = [];
for (const name of values.datasets.split(',')) {
  const set = SETS[name];
  if (set === undefined) throw new Error(`unknown dataset ${name}`);
  let n = 0;
  for await (const item of set()) {
    if (values.limit !== undefined && n++ >= Number(values.limit)) break;
    items.push({ ...item, dataset: name });
  }
}

const base = parseRunOptions({ mode: 'trace' });
const optionsOf = (item: DatasetItem): RunOptions => ({ ...base, ...(item.lang ? { lang: item.lang } : {}) });
/** No definitions: the program is the snippet's own code with what the sandbox lowered. */
const EMPTY: RenderedDefinitions = { source: '', statements: new Map(), accessors: [], receiver: undefined, identifiers: new Set(), guarded: () => '' };

function prepare(item: DatasetItem): PreparedSnippet | undefined {
  const prepared = prepareSnippet(item.code, optionsOf(item), new HostDeadline(60_000));
  return 'status' in prepared ? undefined : prepared;
}

/** The program of a run that drove every target: the nested ones are registered in a copy of the lowered tree. */
function partsOf(prepared: PreparedSnippet): ProgramParts {
  const drives = prepared.instrumented.driveTargets.map((_, k) => ({ k, outcome: 'returned' as const }));
  return { parsed: prepared.parsed, instrumented: prepared.instrumented, rendered: EMPTY, drives };
}

/** Process CPU (every thread: the main one, GC and compiler helpers) and the main thread's, in ms. */
const cpu = () => {
  const u = process.cpuUsage();
  const m = process.threadCpuUsage();
  return { all: (u.user + u.system) / 1000, main: (m.user + m.system) / 1000 };
};
const passes = Number(values.passes);
const names = [...new Set(items.map((i) => i.dataset))];
interface Row { pass: number; dataset: string; n: number; prepareMs: number; prepareMainMs: number; emitMs: number; emitMainMs: number }
const rows: Row[] = [];
let session: Session | undefined;
for (let pass = 1; pass <= passes; pass++) {
  if (pass === 2 && values.profile) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  for (const dataset of names) {
    const set = items.filter((i) => i.dataset === dataset);
    (globalThis as { gc?: () => void }).gc?.();
    // Timed over the whole set: a CPU reading per snippet would cost more than some snippets.
    const start = cpu();
    const prepared = set.map(prepare);
    const mid = cpu();
    if (!values['prepare-only']) for (const p of prepared) if (p) buildProgram(partsOf(p));
    const end = cpu();
    const row = { pass, dataset, n: set.length, prepareMs: mid.all - start.all, prepareMainMs: mid.main - start.main, emitMs: end.all - mid.all, emitMainMs: end.main - mid.main };
    rows.push(row);
    console.log(`pass ${pass} ${dataset}: ${perSnippet(row)} (${set.length} snippets)`);
  }
}
if (session) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(values.profile!, JSON.stringify(profile));
  session.disconnect();
}
for (const dataset of names) {
  const steady = rows.filter((r) => r.dataset === dataset && r.pass > 1);
  if (steady.length === 0) continue;
  // The median pass: a pass the machine's other work slowed is left out.
  const median = (f: (r: Row) => number) => [...steady].map(f).sort((a, b) => a - b)[Math.floor((steady.length - 1) / 2)] as number;
  const n = steady[0]!.n;
  console.log(`steady ${dataset} (median of passes 2-${passes}): ${perSnippet({ prepareMs: median((r) => r.prepareMs), prepareMainMs: median((r) => r.prepareMainMs), emitMs: median((r) => r.emitMs), emitMainMs: median((r) => r.emitMainMs), n })}`);
}
console.log(JSON.stringify(rows));

function perSnippet(r: Pick<Row, 'prepareMs' | 'prepareMainMs' | 'emitMs' | 'emitMainMs' | 'n'>): string {
  const f = (ms: number) => (ms / r.n).toFixed(3);
  return `prepare ${f(r.prepareMs)} CPU ms per snippet (main thread ${f(r.prepareMainMs)}), emit ${f(r.emitMs)} (${f(r.emitMainMs)})`;
}

if (values.digest) {
  const lines: string[] = [];
  for (const item of items) {
    const prepared = prepareSnippet(item.code, optionsOf(item), new HostDeadline(60_000));
    if ('status' in prepared) {
      lines.push(JSON.stringify({ id: item.id, result: { ...prepared, elapsedMs: 0 } }));
      continue;
    }
    const { instrumented: i, parsed, names } = prepared;
    const hookFree = (s: string) => s.split(i.hook).join('HOOK');
    const parts = partsOf(prepared);
    lines.push(hookFree(JSON.stringify({
      id: item.id, lang: parsed.lang, repairs: parsed.repairs, dropped: parsed.droppedLines, names,
      code: i.code, shownHook: i.shownHook, async: i.async, topLevelNames: i.topLevelNames, topLevelReturn: i.topLevelReturn,
      driveTargets: i.driveTargets, positions: i.positions, usage: i.usage, map: i.map,
      lowered: i.lowered && { directives: i.lowered.directives, rewrite: i.lowered.rewrite },
      program: buildProgram(parts), layout: programLayout(parts), typed: buildProgram(parts, 'ts'),
    }, (_k, v: unknown) => (v instanceof Map ? [...v] : v instanceof Set ? [...v] : v))));
  }
  writeFileSync(values.digest, lines.join('\n') + '\n');
  console.log(`digest: ${lines.length} snippets → ${values.digest}`);
}
