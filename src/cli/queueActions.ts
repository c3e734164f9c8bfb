import type { BatchProgress, BatchRun } from '../batch/runBatch.ts';
import type { InvalidLine } from '../batch/readDataset.ts';
import { llmOptionsSchema, type LlmFlags } from '../llm/llmOptions.ts';
import { runOptionsSchema, type BatchOptionsInput, type RunOptionsInput } from '../core/options.ts';
import { runQueueBatch } from '../queue/queueBatch.ts';
import { startQueueWorker } from '../queue/queueWorker.ts';
import { checkReachable, printableUrl, type ConnectionWatcher } from '../queue/redisConnection.ts';
import { queueSecret } from '../queue/jobTrust.ts';
import { checkFlags, collectFlags } from './optionFlags.ts';
import { runName, WORKER_LIMIT_FLAGS, WORKER_LLM_FLAGS, type QueueFlags } from './queueCommands.ts';

/** Losing Redis and getting it back, said on stderr (the run goes on when it is back). */
function stderrWatch(who: string): ConnectionWatcher {
  return {
    onLost: (message) => process.stderr.write(`snipexec ${who}: ${message}\n`),
    onBack: () => process.stderr.write(`snipexec ${who}: Redis is back; going on\n`),
  };
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

/** `worker`'s parsed flags. */
export type WorkerFlags = { queue: string; name?: string; concurrency: number; stalledInterval: number } & Record<string, unknown>;

/** `snipexec worker`: takes jobs until SIGTERM or SIGINT, then finishes the ones in hand. */
export async function workerAction(flags: WorkerFlags): Promise<void> {
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
}
