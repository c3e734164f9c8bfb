// `npm run eval`: every mode over every dataset present, side by side.
// Usage: npm run eval [-- --modes none,dummy,trace,trace+nodrive,llm] [--datasets a,b] [--reps N] [--limit N] [--baseline FILE]
//   MODE drives (the default): what the snippet defines and nothing called is called at the end;
//   MODE+nodrive runs MODE with --no-drive: the code as written (MODE+calls, from when drive was opt-in, is MODE);
//   MODE+noenv runs MODE without environments (the ablation of issue 12).
//                        [--concurrency N] [--out DIR] [--llm-cache DIR]
// Writes to eval/results/: DATASET.MODE[.repK].jsonl (per snippet), summary.json, table.md,
// coverage.svg. `llm` runs only when an endpoint is configured or its response cache exists.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { availableDatasets } from '../datasets/loadDatasets.ts';
import { runBatch } from '../src/batch/runBatch.ts';
import type { BatchRow } from '../src/core/batchSummary.ts';
import { LlmNotConfigured } from '../src/core/errors.ts';
import { llmOptionsFromEnv, parseLlmOptions } from '../src/llm/llmOptions.ts';
import { LlmEnvironment } from '../src/llm/llmSession.ts';
import type { Mode } from '../src/core/options.ts';
import { evaluateDiff, type DiffEvaluation } from './evalDiff.ts';
import { historyTable, readHistoryCases, runHistoryCase, summarizeHistory, type HistoryRow } from './evalDiffHistory.ts';
import { coverageSvg, markdownTable, type Baseline } from './renderReport.ts';
import { figures, overlap, type ModeFigures, type Overlap } from './summarizeRuns.ts';

const here = new URL('.', import.meta.url).pathname;
const { values } = parseArgs({
  allowNegative: true,
  options: {
    modes: { type: 'string', default: 'none,dummy,trace,trace+nodrive,llm' },
    datasets: { type: 'string' },
    reps: { type: 'string', default: '1' },
    limit: { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    out: { type: 'string', default: join(here, 'results') },
    'llm-cache': { type: 'string', default: join(here, 'llm-cache') },
    diff: { type: 'boolean', default: true },
    baseline: { type: 'string', default: join(here, 'results', 'baseline.json') },
  },
});
const reps = Math.max(1, Number(values.reps));
const limit = values.limit === undefined ? undefined : Number(values.limit);
const concurrency = Number(values.concurrency);
mkdirSync(values.out, { recursive: true });

const notes: string[] = [];
const { datasets, absent } = availableDatasets();
for (const a of absent) {
  console.error(`eval: ${a}`);
  notes.push(a);
}
const wanted = values.datasets?.split(',');
const chosen = datasets.filter((d) => !wanted || wanted.includes(d.name));

let modes = values.modes.split(',');
// Suffixes: +calls calls what nothing called; +noenv runs without environments (an ablation).
const baseMode = (m: string) => m.replace(/(\+calls|\+noenv|\+nodrive)+$/, '') as Mode;
const llm = modes.some((m) => baseMode(m) === 'llm') ? llmEnvironment(values['llm-cache']) : undefined;
if (!llm) modes = modes.filter((m) => baseMode(m) !== 'llm');

const all: ModeFigures[] = [];
const overlaps: Overlap[] = [];
const rowsFor = new Map<string, Map<string, BatchRow[]>>();
for (const dataset of chosen) {
  const byMode = new Map<string, BatchRow[]>();
  for (const mode of modes) {
    // Only the LLM is stochastic; the offline modes are deterministic for a seed, so one run says it all.
    const n = baseMode(mode) === 'llm' ? reps : 1;
    const runOptions = { mode: baseMode(mode), drive: !mode.includes('+nodrive'), environments: !mode.includes('+noenv') };
    const runs: BatchRow[][] = [];
    const started = Date.now();
    for (let k = 0; k < n; k++) {
      const file = join(values.out, `${dataset.name}.${mode}${n > 1 ? `.rep${k + 1}` : ''}.jsonl`);
      const { summary } = await runBatch(dataset.items(), { ...runOptions, seed: k + 1 }, { out: file, concurrency, ...(limit ? { limit } : {}) }, undefined, llm && runOptions.mode === 'llm' ? { llm } : {});
      runs.push(readRows(file));
      console.error(`eval: ${dataset.name} ${mode}${n > 1 ? ` rep ${k + 1}` : ''}: line ${(summary.lineCoverage * 100).toFixed(1)} %, fully executed ${(summary.fullyExecutedRate * 100).toFixed(1)} %, ${summary.snippets} snippets in ${(summary.elapsedMs / 1000).toFixed(1)} s`);
    }
    all.push(figures(dataset.name, mode, runs, Date.now() - started));
    byMode.set(mode, runs[0] ?? []);
  }
  rowsFor.set(dataset.name, byMode);
  const present = [...byMode.keys()];
  for (let i = 0; i < present.length; i++) {
    for (let j = i + 1; j < present.length; j++) {
      const a = present[i] as string;
      const b = present[j] as string;
      overlaps.push(overlap(dataset.name, a, byMode.get(a) ?? [], b, byMode.get(b) ?? []));
    }
  }
}

// `snipexec diff` against ground truth, and its false-positive rate on released code.
let diff: DiffEvaluation | undefined;
const historyRows: HistoryRow[] = [];
if (values.diff) {
  diff = await evaluateDiff();
  console.error(`eval: diff: detected ${diff.detected}/${diff.buggy} type errors, ${diff.falsePositives}/${diff.clean} clean changes flagged`);
  const cases = readHistoryCases();
  for (const c of limit === undefined ? cases : cases.slice(0, limit)) historyRows.push(await runHistoryCase(c));
  console.error(`eval: diff on real history: ${historyTable(summarizeHistory(historyRows), []).split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| measure')).join(' ')}`);
}

const summary = { generatedAt: new Date().toISOString(), node: process.version, modes, reps, limit: limit ?? null, datasets: chosen.map((d) => ({ name: d.name, kind: d.kind, describe: d.describe })), figures: all, overlaps, diff: diff ?? null, diffHistory: diff ? summarizeHistory(historyRows) : null, notes };
writeFileSync(join(values.out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
const table = markdownTable(all, overlaps, notes, readBaseline(values.baseline)) + (diff ? diffTable(diff) + '\n' + historyTable(summarizeHistory(historyRows), historyRows) : '');
writeFileSync(join(values.out, 'table.md'), table);
writeFileSync(join(values.out, 'coverage.svg'), coverageSvg(rowsFor));
console.log(table);

function diffTable(d: DiffEvaluation): string {
  const pct = (a: number, b: number) => (b === 0 ? '–' : `${((a / b) * 100).toFixed(1)} %`);
  const rows = [
    '### snipexec diff (datasets/type-errors)', '',
    '| measure | value |', '|---|---|',
    `| type errors detected at their line | ${d.detected} / ${d.buggy} (${pct(d.detected, d.buggy)}) |`,
    `| clean changes flagged (false positives) | ${d.falsePositives} / ${d.clean} (${pct(d.falsePositives, d.clean)}) |`,
  ];
  if (d.missed.length) rows.push('', `Missed: ${d.missed.join(', ')}`);
  if (d.flagged.length) rows.push('', `Flagged clean: ${d.flagged.join(', ')}`);
  return rows.join('\n') + '\n';
}

/** The committed figures a run is compared with (`--baseline FILE`, a summary.json of an earlier run). */
function readBaseline(file: string): Baseline | undefined {
  if (!existsSync(file)) return undefined;
  const earlier = JSON.parse(readFileSync(file, 'utf8')) as { generatedAt: string; baselineOf?: string; figures: ModeFigures[] };
  return { label: earlier.baselineOf ?? `the run of ${earlier.generatedAt}`, figures: earlier.figures };
}

function readRows(file: string): BatchRow[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as BatchRow);
}

/** The configured endpoint with the eval's cache; else a replay of the cache alone; else none. */
function llmEnvironment(cacheDir: string): LlmEnvironment | undefined {
  try {
    return new LlmEnvironment(llmOptionsFromEnv(process.env, { cacheDir }));
  } catch (error) {
    if (!(error instanceof LlmNotConfigured)) throw error;
  }
  const endpoint = join(cacheDir, 'endpoint.json');
  if (existsSync(endpoint)) {
    const { baseURL, model } = JSON.parse(readFileSync(endpoint, 'utf8')) as { baseURL: string; model: string };
    notes.push(`llm: replayed from the response cache ${cacheDir} (${model} at ${baseURL}); no endpoint configured`);
    return new LlmEnvironment(parseLlmOptions({ baseURL, model, apiKey: 'cache-only', cacheDir, retries: 0 }));
  }
  const note = 'llm: skipped; no endpoint configured (OPENAI_BASE_URL / OPENAI_API_KEY, SNIPEXEC_MODEL) and no response cache in eval/llm-cache';
  console.error(`eval: ${note}`);
  notes.push(note);
  return undefined;
}
