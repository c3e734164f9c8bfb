import { readFileSync } from 'node:fs';
import cliProgress from 'cli-progress';
import type { InvalidLine } from '../batch/readDataset.ts';
import { InvalidOptions } from '../core/errors.ts';
import type { RunStatus } from '../core/runResult.ts';
import { jsonText, terminalLine, terminalText } from '../report/terminalText.ts';
import type { CommandContext } from './commandContext.ts';
import { llmEnvironment, llmFlags, runLogger, toBatchOptions, toReportOptions, toRunOptions, type Flags } from './commandOptions.ts';
import { batchInput, snippetFileItems } from './batchInputs.ts';
import { checkWritableFile } from './inputFiles.ts';
import { checkQueueFlags, givenReportFlags, type QueueFlags } from './queueCommands.ts';
import type { ReportFlags } from './reportFlags.ts';
import { ReportOutputs } from './reportOutputs.ts';
import { exitCodeFor, stopOnSignals } from './stopOnSignal.ts';

/** `batch`'s parsed flags. */
export type BatchFlags = Flags & ReportFlags & QueueFlags & { json?: boolean; failOn?: RunStatus[] };

/** `snipexec batch DATASET | FILES…`: runs every snippet, prints the summary; exit 1 on an internal error or a --fail-on status, 130 or 143 on a signal. */
export async function batchAction(inputs: string[], flags: BatchFlags, context: CommandContext): Promise<void> {
  const options = toRunOptions(flags, context);
  const batchOptions = toBatchOptions(flags, context);
  checkQueueFlags(flags);
  if ((batchOptions.processes ?? 1) > 1) {
    if (flags.queue !== undefined) throw new InvalidOptions('--processes: not with --queue (its workers are the processes: start more of them)');
    const reports = givenReportFlags(flags);
    if (reports.length > 0) throw new InvalidOptions(`${reports.join(', ')}: not with --processes (a worker process sends back rows, not the coverage detail the reports need); run them with --processes 1`);
  }
  // A queued run's LLM environment is each worker's own (its endpoint, its cache).
  const llm = flags.queue === undefined ? await llmEnvironment(flags, options, context) : undefined;
  const input = await batchInput(inputs);
  if ('files' in input && flags.queue !== undefined) throw new InvalidOptions('--queue: needs a JSONL dataset (the queue reads it again for its rows); snippet files run without --queue');
  if (batchOptions.out) checkWritableFile(batchOptions.out, batchOptions.resume === true);
  // A queued row carries no coverage detail: the config's coverage settings do not apply (checkQueueFlags refuses the flags).
  const reports = await ReportOutputs.open(flags.queue === undefined ? toReportOptions(flags, context) : {}, 'batch', options.mode ?? 'trace', batchOptions.resume === true);
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar({ stream: process.stderr, format: 'batch [{bar}] {percentage}% | {value}/{total} | ETA {eta_formatted} | {skipped} resumed | {status}', etaBuffer: 50 }, cliProgress.Presets.shades_classic)
    : undefined;
  const stop = stopOnSignals((signal) => {
    bar?.stop();
    process.stderr.write(`snipexec: ${signal}: starting no more snippets; the running ones finish and are written (${signal} again to stop at once)\n`);
  });
  // The total is what this batch will run: the dataset's lines or the files, at most --limit (resumed ones count as done).
  const lines = 'files' in input ? input.files.length : countLines(input.dataset);
  bar?.start(batchOptions.limit === undefined ? lines : Math.min(lines, batchOptions.limit), 0, { skipped: 0, status: '' });
  let batch: Awaited<ReturnType<typeof import('../batch/runBatch.ts').runBatch>>;
  const onInvalid = (invalid: InvalidLine) => process.stderr.write(`snipexec: ${terminalLine(`${invalid.file}:${invalid.line}: skipped${invalid.id === undefined ? '' : ` (id ${invalid.id})`}: ${invalid.message}`)}\n`);
  try {
    if (flags.queue !== undefined && 'dataset' in input) {
      // Only --queue loads the Redis client.
      const { queueBatch } = await import('./queueActions.ts');
      batch = await queueBatch(input.dataset, options, batchOptions, flags, { version: context.version, llm: options.mode === 'llm' ? llmFlags(flags, context) : undefined, signal: stop.signal, onInvalid },
        (p) => bar?.update(p.done + p.skipped, { skipped: p.skipped, status: terminalLine(`${p.last.id}: ${p.last.status}`) }));
    } else batch = await (await import('../batch/runBatch.ts')).runBatch(
      'files' in input ? snippetFileItems(input.files, options.projectDir) : input.dataset,
      options,
      batchOptions,
      (p) => bar?.update(p.done + p.skipped, { skipped: p.skipped, status: terminalLine(`${p.last.id}: ${p.last.status}`) }),
      {
        ...(llm ? { llm } : { logger: await runLogger(flags, context) }),
        signal: stop.signal,
        onResult: (item, result) => reports.addSnippet(item.id, item.code, result),
        onInvalid,
      },
    );
  } finally {
    stop.dispose();
  }
  bar?.stop();
  const { summary } = batch;
  const received = stop.received();
  if (received) process.exitCode = exitCodeFor(received);
  process.stdout.write(flags.json ? jsonText(summary) + '\n' : (await import('../report/formatBatchSummary.ts')).formatBatchSummary(summary));
  // Written after an interrupted batch too: what ran is reported.
  const { printed, failures } = reports.finish();
  if (printed !== '') (flags.json ? process.stderr : process.stdout).write(terminalText(printed));
  for (const f of failures) process.stderr.write(`snipexec: ${terminalLine(f)}\n`);
  if (!stop.received() && failures.length > 0) process.exitCode = 1;
  // A snippet snipexec failed on, or one with a status the user named: exit 1 (a signal's code stands).
  const failing = new Set<RunStatus>(['internal-error', ...(flags.failOn ?? [])]);
  const failed = Object.entries(summary.statusCounts).filter(([status, n]) => failing.has(status as RunStatus) && (n ?? 0) > 0);
  if (!received && failed.length > 0) {
    process.stderr.write(`snipexec: ${failed.map(([status, n]) => `${n} snippet${n === 1 ? '' : 's'} ended as ${status}`).join(', ')}\n`);
    process.exitCode = 1;
  }
}

function countLines(file: string): number {
  try {
    return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
  } catch {
    return 0;
  }
}
