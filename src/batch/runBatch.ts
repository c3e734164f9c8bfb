import { existsSync, readFileSync, truncateSync, appendFileSync, statSync } from 'node:fs';
import { runSnippet, type RunDependencies } from '../engine/runSnippet.ts';
import { parseBatchOptions, parseRunOptions, type BatchOptionsInput, type RunOptionsInput } from '../options.ts';
import type { RunResult } from '../report/buildResult.ts';
import { NO_LLM_USAGE } from '../llm/llmSession.ts';
import { readDataset, type DatasetItem } from './readDataset.ts';
import { SummaryAccumulator, type BatchRow, type BatchSummary } from './summarize.ts';

export interface BatchProgress {
  readonly done: number;
  readonly skipped: number;
  readonly last: BatchRow;
}

export interface BatchRun {
  readonly summary: BatchSummary;
  readonly ran: number;
  readonly skipped: number;
}

/**
 * Runs every snippet of a JSONL dataset (a file path) or of any stream of items. Each result is appended to `out` as soon as it finishes,
 * so a killed batch loses nothing that had finished; `resume` skips the ids already in `out`.
 */
export async function runBatch(
  dataset: string | AsyncIterable<DatasetItem>,
  runInput: RunOptionsInput,
  batchInput: BatchOptionsInput,
  onProgress?: (p: BatchProgress) => void,
  deps: RunDependencies = {},
): Promise<BatchRun> {
  const started = Date.now();
  const runOptions = parseRunOptions(runInput);
  const options = parseBatchOptions(batchInput);
  const summary = new SummaryAccumulator();
  // Only the ids of earlier results are kept: a batch of any length holds no rows in memory.
  const previous = options.out && options.resume ? readPreviousResults(options.out, summary) : new Set<string>();
  if (options.out && !options.resume && existsSync(options.out)) truncateSync(options.out, 0);
  let done = 0;
  let skipped = 0;
  const iterator = (typeof dataset === 'string' ? readDataset(dataset) : dataset)[Symbol.asyncIterator]();
  let taken = 0;
  const next = async (): Promise<DatasetItem | undefined> => {
    for (;;) {
      if (options.limit !== undefined && taken >= options.limit) return undefined;
      const item = await iterator.next();
      if (item.done) return undefined;
      taken++;
      if (previous.has(item.value.id)) { skipped++; continue; }
      return item.value;
    }
  };
  const worker = async () => {
    for (let item = await next(); item; item = await next()) {
      const result = await runOne(item, runInput, deps);
      const { program: _program, types: _types, ...json } = result;
      const row: BatchRow = { id: item.id, ...json };
      if (options.out) appendFileSync(options.out, JSON.stringify(row) + '\n');
      summary.add(row);
      done++;
      onProgress?.({ done, skipped, last: row });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsedMs = Date.now() - started;
  return { summary: summary.result(runOptions.mode, elapsedMs, done), ran: done, skipped };
}

async function runOne(item: DatasetItem, runInput: RunOptionsInput, deps: RunDependencies): Promise<RunResult> {
  try {
    return await runSnippet(item.code, { ...runInput, ...(item.lang ? { lang: item.lang } : {}) }, deps);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      status: 'internal-error', lines: { total: 0, covered: 0, measured: [], uncovered: [] }, branches: { total: 0, covered: 0 },
      lineCoverage: 0, branchCoverage: 0, fullyExecuted: false, injections: [],
      errors: [{ type: 'InternalError', message, line: 0, column: 0, attribution: 'sandbox' }],
      stdout: '', runs: 0, llmCalls: NO_LLM_USAGE, elapsedMs: 0,
    };
  }
}

/** Reads the results of an earlier run; a line cut off by a kill is dropped from the file. */
function readPreviousResults(out: string, summary: SummaryAccumulator): Set<string> {
  const ids = new Set<string>();
  if (!existsSync(out)) return ids;
  const text = readFileSync(out, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  if (end < statSync(out).size) truncateSync(out, Buffer.byteLength(text.slice(0, end)));
  for (const line of text.slice(0, end).split('\n')) {
    if (line.trim() === '') continue;
    try {
      const row = JSON.parse(line) as BatchRow;
      if (typeof row.id === 'string' && !ids.has(row.id)) {
        ids.add(row.id);
        summary.add(row);
      }
    } catch {
      // a corrupt line is re-run rather than trusted
    }
  }
  return ids;
}
