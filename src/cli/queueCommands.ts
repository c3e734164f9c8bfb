import type { Command } from 'commander';
import { InvalidOptions } from '../core/errors.ts';
import { llmOptionsSchema } from '../llm/llmOptions.ts';
import { runOptionsSchema } from '../core/options.ts';
import { addFlags, LLM_BATCH_FLAGS, LLM_FLAGS, positiveInteger, RUN_FLAGS } from './optionFlags.ts';
import type { WorkerFlags } from './queueActions.ts';
import { REPORT_FLAGS, type ReportFlags } from './reportFlags.ts';

/** The flags of a queued batch. */
export interface QueueFlags {
  readonly queue?: string;
  readonly name?: string;
}

export function runName(value: string): string {
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
  const given = givenReportFlags(flags);
  if (given.length > 0) throw new InvalidOptions(`${given.join(', ')}: not with --queue (a row does not carry the coverage detail the reports need); run them on a local batch`);
}

/** The report flags given (coverage reporters, thresholds, --html): each needs the results' coverage detail, which only a batch run in one process has. */
export function givenReportFlags(flags: ReportFlags): string[] {
  const given: string[] = Object.entries(REPORT_FLAGS).filter(([attribute]) => flags[attribute as keyof ReportFlags] !== undefined).map(([, spec]) => spec.flag);
  if (flags.html !== undefined) given.push('--html');
  return given;
}

/** The worker's own budgets: a job may ask for less, never more (jobTrust.ts). */
export const WORKER_LIMIT_FLAGS = {
  timeoutMs: RUN_FLAGS.timeoutMs,
  totalTimeoutMs: RUN_FLAGS.totalTimeoutMs,
  memoryLimitMb: RUN_FLAGS.memoryLimitMb,
  scenarios: RUN_FLAGS.scenarios,
  maxRuns: RUN_FLAGS.maxRuns,
  modulesDirs: RUN_FLAGS.modulesDirs,
};
export const WORKER_LLM_FLAGS = { ...LLM_FLAGS, ...LLM_BATCH_FLAGS };

/** `snipexec worker --queue redis://… [--name RUN] [--concurrency N]`: its flags here, its work in queueActions.ts, imported when it runs. */
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
  command.action(async (flags: WorkerFlags) => (await import('./queueActions.ts')).workerAction(flags));
}
