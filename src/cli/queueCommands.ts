import type { Command } from 'commander';
import { InvalidOptions } from '../errors.ts';
import type { BatchProgress, BatchRun } from '../batch/runBatch.ts';
import type { InvalidLine } from '../batch/readDataset.ts';
import type { LlmFlags } from '../llm/llmOptions.ts';
import type { BatchOptionsInput, RunOptionsInput } from '../options.ts';
import { runQueueBatch } from '../queue/queueBatch.ts';
import { startQueueWorker } from '../queue/queueWorker.ts';
import { checkReachable, type ConnectionWatcher } from '../queue/redisConnection.ts';
import { positiveInteger } from './optionFlags.ts';
import type { ReportFlags } from './reportOutputs.ts';

/** The flags of a queued batch. */
export interface QueueFlags {
  readonly queue?: string;
  readonly name?: string;
}

/** Losing Redis and getting it back, said on stderr (the run goes on when it is back). */
function stderrWatch(who: string): ConnectionWatcher {
  return {
    onLost: (message) => process.stderr.write(`snipexec ${who}: ${message}\n`),
    onBack: () => process.stderr.write(`snipexec ${who}: Redis is back; going on\n`),
  };
}

function runName(value: string): string {
  if (!/^[\w.-]{1,100}$/.test(value)) throw new InvalidOptions(`--name: letters, digits, '_', '.', '-' only (it names the queue), got ${JSON.stringify(value)}`);
  return value;
}

/** `batch --queue redis://… [--name RUN]`. */
export function addQueueFlags(cmd: Command): Command {
  return cmd
    .option('--queue <url>', 'enqueue the snippets in Redis (redis://HOST:PORT[/DB]) for `snipexec worker` processes on any machine, and write their rows to --out as they finish')
    .option('--name <run>', "with --queue: the run's name, which names its queue (workers take --name RUN too)");
}

/** Flags that do not go with --queue, refused before anything runs. */
export function checkQueueFlags(flags: QueueFlags & ReportFlags): void {
  if (flags.queue === undefined) {
    if (flags.name !== undefined) throw new InvalidOptions('--name: goes with --queue');
    return;
  }
  if (flags.name !== undefined) runName(flags.name);
  if (flags.coverageDir !== undefined || flags.html !== undefined || flags.checkCoverage) throw new InvalidOptions('--coverage-dir, --html, --check-coverage: not with --queue (a row does not carry the coverage detail the reports need); run them on a local batch');
}

/** The queued batch of `batch --queue`: its progress on stderr, the same run as runBatch's. */
export async function queueBatch(
  dataset: string, options: RunOptionsInput, batchOptions: BatchOptionsInput, flags: QueueFlags,
  extra: { version: string; llm: LlmFlags | undefined; signal: AbortSignal; onInvalid: (invalid: InvalidLine) => void },
  onProgress: (p: BatchProgress) => void,
): Promise<BatchRun> {
  return runQueueBatch(dataset, options, batchOptions, {
    url: flags.queue ?? '',
    ...(flags.name !== undefined ? { name: flags.name } : {}),
    version: extra.version,
    ...(extra.llm ? { llm: extra.llm } : {}),
    signal: extra.signal,
    watch: stderrWatch('batch'),
    onInvalid: extra.onInvalid,
    onRequeued: (jobs) => process.stderr.write(`snipexec batch: ${jobs} pending jobs were gone from Redis (its data was lost); enqueued again\n`),
    onEnqueued: ({ runKey, jobs }) => process.stderr.write(`snipexec batch: ${jobs} jobs of run ${runKey} in the queue; waiting for workers (snipexec worker --queue ${flags.queue}${flags.name ? ` --name ${flags.name}` : ''})\n`),
  }, onProgress);
}

/** `snipexec worker --queue redis://… [--name RUN] [--concurrency N]`. */
export function addWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the jobs of queued batches (batch --queue) with the same engine, one isolate per job, until SIGTERM')
    .requiredOption('--queue <url>', 'the Redis the batches were enqueued in: redis://HOST:PORT[/DB]')
    .option('--name <run>', 'take the jobs of the run of this name (batch --name)')
    .option('--concurrency <n>', 'jobs run at once, each in its own isolate', positiveInteger, 2)
    .option('--stalled-interval <ms>', "how long a job's lock lasts, and how often jobs of killed workers are looked for: such a job is taken again after up to twice this", positiveInteger, 30_000)
    .option('--llm-cache <dir>', "this machine's LLM response cache (--mode llm runs; the cache is not shared between machines)")
    .addHelpText('after', '\nSIGTERM or SIGINT: the jobs in hand finish, no new one is taken, then the worker exits; a second signal ends at once.\nA worker killed mid-job: its jobs go to another worker after the stalled interval; after a second such stall a job is written as internal-error.')
    .action(async (flags: { queue: string; name?: string; concurrency: number; stalledInterval: number; llmCache?: string }) => {
      if (flags.name !== undefined) runName(flags.name);
      await checkReachable(flags.queue);
      let finished = 0;
      const worker = startQueueWorker(flags.queue, {
        ...(flags.name !== undefined ? { name: flags.name } : {}),
        concurrency: flags.concurrency,
        stalledIntervalMs: flags.stalledInterval,
        ...(flags.llmCache !== undefined ? { llm: { cacheDir: flags.llmCache } } : {}),
        watch: stderrWatch('worker'),
        onJob: () => finished++,
      });
      await worker.ready;
      process.stderr.write(`snipexec worker: taking jobs from ${flags.queue}${flags.name ? ` (run ${flags.name})` : ''}, ${flags.concurrency} at a time\n`);
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        process.once('SIGTERM', () => resolve('SIGTERM'));
        process.once('SIGINT', () => resolve('SIGINT'));
      });
      process.stderr.write(`snipexec worker: ${signal}: finishing the jobs in hand, taking no new ones (${signal} again to stop at once)\n`);
      process.once(signal, () => process.kill(process.pid, signal));
      await worker.close();
      process.stderr.write(`snipexec worker: stopped after ${finished} jobs\n`);
    });
}
