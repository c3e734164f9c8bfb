import type { Command } from 'commander';
import { InvalidOptions } from '../core/errors.ts';
import type { BatchProgress, BatchRun } from '../batch/runBatch.ts';
import type { InvalidLine } from '../batch/readDataset.ts';
import type { LlmFlags } from '../llm/llmOptions.ts';
import type { BatchOptionsInput, RunOptionsInput } from '../core/options.ts';
import { runQueueBatch } from '../queue/queueBatch.ts';
import { startQueueWorker } from '../queue/queueWorker.ts';
import { checkReachable, printableUrl, type ConnectionWatcher } from '../queue/redisConnection.ts';
import { llmOptionsSchema } from '../llm/llmOptions.ts';
import { runOptionsSchema } from '../core/options.ts';
import { queueSecret } from '../queue/jobTrust.ts';
import { addFlags, checkFlags, collectFlags, LLM_BATCH_FLAGS, LLM_FLAGS, positiveInteger, RUN_FLAGS } from './optionFlags.ts';
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
    onEnqueued: ({ runKey, jobs }) => process.stderr.write(`snipexec batch: ${jobs} jobs of run ${runKey} in the queue; waiting for workers (snipexec worker --queue ${printableUrl(flags.queue ?? '')}${flags.name ? ` --name ${flags.name}` : ''})\n`),
  }, onProgress);
}

/** The worker's own budgets: a job may ask for less, never more (jobTrust.ts). */
const WORKER_LIMIT_FLAGS = {
  timeoutMs: RUN_FLAGS.timeoutMs,
  totalTimeoutMs: RUN_FLAGS.totalTimeoutMs,
  memoryLimitMb: RUN_FLAGS.memoryLimitMb,
  scenarios: RUN_FLAGS.scenarios,
  maxRuns: RUN_FLAGS.maxRuns,
  modulesDirs: RUN_FLAGS.modulesDirs,
};
const WORKER_LLM_FLAGS = { ...LLM_FLAGS, ...LLM_BATCH_FLAGS };

/** `snipexec worker --queue redis://… [--name RUN] [--concurrency N]`. */
export function addWorkerCommand(program: Command): void {
  const command = program
    .command('worker')
    .description('run the jobs of queued batches (batch --queue) with the same engine, one isolate per job, until SIGTERM')
    .requiredOption('--queue <url>', 'the Redis the batches were enqueued in: redis://HOST:PORT[/DB]')
    .option('--name <run>', 'take the jobs of the run of this name (batch --name)')
    .option('--concurrency <n>', 'jobs run at once, each in its own isolate', positiveInteger, 2)
    .option('--stalled-interval <ms>', "how long a job's lock lasts, and how often jobs of killed workers are looked for: such a job is taken again after up to twice this", positiveInteger, 30_000)
    .addHelpText('after', '\nA job may ask only for less than these budgets, and brings no path, endpoint, cache or log setting. With SNIPEXEC_QUEUE_SECRET set (the same on the producer), a job without the producer\'s signature is refused unrun.\nSIGTERM or SIGINT: the jobs in hand finish, no new one is taken, then the worker exits; a second signal ends at once.\nA worker killed mid-job: its jobs go to another worker after the stalled interval; after a second such stall a job is written as internal-error.');
  addFlags(command, WORKER_LIMIT_FLAGS, runOptionsSchema);
  addFlags(command, WORKER_LLM_FLAGS, llmOptionsSchema);
  command.action(async (flags: { queue: string; name?: string; concurrency: number; stalledInterval: number } & Record<string, unknown>) => {
      if (flags.name !== undefined) runName(flags.name);
      const limits = collectFlags<RunOptionsInput>(flags, WORKER_LIMIT_FLAGS);
      checkFlags(limits, WORKER_LIMIT_FLAGS, runOptionsSchema);
      const llm = collectFlags<LlmFlags>(flags, WORKER_LLM_FLAGS);
      checkFlags(llm, WORKER_LLM_FLAGS, llmOptionsSchema);
      const secret = queueSecret();
      await checkReachable(flags.queue);
      let finished = 0;
      const worker = startQueueWorker(flags.queue, {
        ...(flags.name !== undefined ? { name: flags.name } : {}),
        concurrency: flags.concurrency,
        stalledIntervalMs: flags.stalledInterval,
        limits,
        llm,
        ...(secret !== undefined ? { secret } : {}),
        watch: stderrWatch('worker'),
        onJob: () => finished++,
      });
      await worker.ready;
      process.stderr.write(`snipexec worker: taking jobs from ${printableUrl(flags.queue)}${flags.name ? ` (run ${flags.name})` : ''}, ${flags.concurrency} at a time${secret !== undefined ? ', signed jobs only' : ''}\n`);
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
