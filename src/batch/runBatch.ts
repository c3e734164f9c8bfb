import { existsSync, truncateSync, appendFileSync } from 'node:fs';
import pMap, { pMapSkip } from 'p-map';
import { runSnippet, type RunDependencies } from '../engine/runSnippet.ts';
import { parseBatchOptions, parseRunOptions, type BatchOptionsInput, type RunOptionsInput } from '../core/options.ts';
import type { RunResult } from '../core/runResult.ts';
import { NO_LLM_USAGE } from '../core/llmUsage.ts';
import { readDataset, type DatasetItem, type InvalidLine } from './readDataset.ts';
import { readJsonlLines } from './readLines.ts';
import { SummaryAccumulator } from './summarize.ts';
import { SnippetProcessPool } from './processPool.ts';
import { InvalidOptions } from '../core/errors.ts';
import type { BatchRow, BatchRunSummary, BatchSummary } from '../core/batchSummary.ts';

export interface BatchProgress {
  readonly done: number;
  readonly skipped: number;
  readonly last: BatchRow;
}

export interface BatchRun {
  readonly summary: BatchRunSummary;
  readonly ran: number;
  readonly skipped: number;
  /** With `processes` > 1: each worker process's pid and how many snippets it ran (a snippet run again alone after its worker died counts in its own worker). */
  readonly workers?: readonly { readonly pid: number; readonly ran: number }[];
  /** With `processes` > 1: snippets run again, alone in a worker of their own, after their worker ended while it ran them. */
  readonly retried?: number;
}

export interface BatchDependencies extends RunDependencies {
  /**
   * Stops the batch: no snippet is started after it fires; the ones running finish and are written
   * (each is bounded by its own budget), so everything that ran is kept and --resume does the rest.
   */
  readonly signal?: AbortSignal;
  /** A malformed dataset line: skipped and reported here, instead of ending the batch. */
  readonly onInvalid?: (invalid: InvalidLine) => void;
  /**
   * Each finished snippet with its whole result (the row `onProgress` gets is the JSON row), for
   * reports made as results arrive (coverage files, HTML pages); called before the row is written.
   * With `processes` > 1 the result comes from a worker process, without its `detail`.
   */
  readonly onResult?: (item: DatasetItem, result: RunResult) => void;
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
  deps: BatchDependencies = {},
): Promise<BatchRun> {
  const started = Date.now();
  const runOptions = parseRunOptions(runInput);
  const options = parseBatchOptions(batchInput);
  const processes = Math.min(options.processes, options.concurrency);
  // Refused before any file is touched.
  checkProcesses(processes, runOptions.mode, deps);
  const summary = new SummaryAccumulator();
  // Only the ids of earlier results are kept: a batch of any length holds no rows in memory.
  const previous = options.out && options.resume ? await readPreviousResults(options.out, summary) : new Set<string>();
  if (options.out && !options.resume && existsSync(options.out)) truncateSync(options.out, 0);
  let done = 0;
  let skipped = 0;
  let invalidLines = 0;
  const onInvalid = (invalid: InvalidLine) => {
    invalidLines++;
    deps.onInvalid?.(invalid);
  };
  const iterator = (typeof dataset === 'string' ? readDataset(dataset, { onInvalid }) : dataset)[Symbol.asyncIterator]();
  let taken = 0;
  const next = async (): Promise<DatasetItem | undefined> => {
    for (;;) {
      if (deps.signal?.aborted) return undefined;
      if (options.limit !== undefined && taken >= options.limit) return undefined;
      const item = await iterator.next();
      if (item.done) return undefined;
      taken++;
      if (previous.has(item.value.id)) { skipped++; continue; }
      return item.value;
    }
  };
  async function* pending(): AsyncGenerator<DatasetItem> {
    for (let item = await next(); item; item = await next()) yield item;
  }
  const pool = processes > 1 ? new SnippetProcessPool(processes, deps.logger) : undefined;
  // p-map pulls the next item only when a slot is free, so the dataset streams through; the rows
  // go to `out` and the summary, and p-map keeps none of them (pMapSkip).
  try {
    await pMap(pending(), async (item) => {
      const result = pool ? await pool.run(item, runInput).catch((error: Error) => internalErrorResult(error.message)) : await runOne(item, runInput, deps);
      deps.onResult?.(item, result);
      const { program: _program, types: _types, detail: _detail, ...json } = result;
      const row: BatchRow = { id: item.id, ...json };
      if (options.out) appendFileSync(options.out, JSON.stringify(row) + '\n');
      summary.add(row);
      done++;
      onProgress?.({ done, skipped, last: row });
      return pMapSkip;
    }, { concurrency: options.concurrency });
  } finally {
    await pool?.close();
  }
  await iterator.return?.(undefined); // closes the dataset file when the batch stopped early
  const elapsedMs = Date.now() - started;
  const figures = summary.result(runOptions.mode, elapsedMs, done);
  const workers = pool?.pids.map((pid) => ({ pid, ran: pool.answered.get(pid) ?? 0 }));
  return { summary: { ...figures, invalidLines, ...(deps.signal?.aborted ? { interrupted: true as const } : {}) }, ran: done, skipped, ...(workers ? { workers, retried: pool?.retried ?? 0 } : {}) };
}

/**
 * A batch over worker processes (`processes` > 1, processPool.ts) runs each snippet with the
 * options alone: what a caller hands the engine in-process (a value source, a clock, environments,
 * an LLM environment, replay off) cannot cross into another process, and `--mode llm` shares one
 * endpoint, cache and caps. Such a batch is refused, not run otherwise.
 */
function checkProcesses(processes: number, mode: string, deps: BatchDependencies): void {
  if (processes <= 1) return;
  const held: string[] = (['values', 'clock', 'environments', 'llm'] as const).filter((k) => deps[k] !== undefined);
  if (deps.replay === false) held.push('replay: false');
  if (mode === 'llm') held.push('--mode llm');
  if (held.length > 0) throw new InvalidOptions(`processes: ${processes} runs the snippets in other processes, which cannot take ${held.join(', ')}; run it in one process (processes: 1)`);
}

/** One snippet of a batch, with the engine a local batch uses: an error snipexec did not expect becomes an internal-error result. */
export async function runOne(item: DatasetItem, runInput: RunOptionsInput, deps: RunDependencies): Promise<RunResult> {
  try {
    return await runSnippet(item.code, { ...runInput, ...(item.lang ? { lang: item.lang } : {}), ...(item.fileName !== undefined ? { fileName: item.fileName } : {}) }, { ...deps, snippetId: item.id });
  } catch (error) {
    return internalErrorResult(error instanceof Error ? error.message : String(error));
  }
}

/** The result of a snippet snipexec failed on (an unexpected error, a queued job that could not run): no coverage, the message as its error. */
export function internalErrorResult(message: string): RunResult {
  return {
    status: 'internal-error', lines: { total: 0, covered: 0, measured: [], uncovered: [] }, branches: { total: 0, covered: 0 },
    lineCoverage: 0, branchCoverage: 0, fullyExecuted: false, injections: [],
    errors: [{ type: 'InternalError', message, line: 0, column: 0, attribution: 'sandbox' }],
    stdout: '', runs: 0, llmCalls: NO_LLM_USAGE, elapsedMs: 0,
  };
}

/**
 * Reads the results of an earlier run, line by line (split on `\n` only, as they were written);
 * a last line cut off by a kill is dropped from the file.
 */
export async function readPreviousResults(out: string, summary: SummaryAccumulator): Promise<Set<string>> {
  const ids = new Set<string>();
  if (!existsSync(out)) return ids;
  let complete = 0;
  let cut = false;
  for await (const { text: line, end } of readJsonlLines(out)) {
    if (end === undefined) {
      cut = true;
      continue;
    }
    complete = end;
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
  if (cut) truncateSync(out, complete);
  return ids;
}
