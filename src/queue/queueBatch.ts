import { appendFileSync, existsSync, truncateSync } from 'node:fs';
import { Queue, QueueEvents } from 'bullmq';
import { readPreviousResults, internalErrorResult, type BatchProgress, type BatchRun } from '../batch/runBatch.ts';
import { readDataset, type DatasetItem, type InvalidLine } from '../batch/readDataset.ts';
import { SummaryAccumulator } from '../batch/summarize.ts';
import type { BatchRow } from '../core/batchSummary.ts';
import type { LlmFlags } from '../llm/llmOptions.ts';
import { parseBatchOptions, parseRunOptions, type BatchOptionsInput, type RunOptionsInput } from '../core/options.ts';
import { PAYLOAD_VERSION, queueName, type JobPayload } from './jobPayload.ts';
import { checkReachable, watchedConnection, type ConnectionWatcher } from './redisConnection.ts';
import { jobId, runKey, type LlmResultOptions } from './runKey.ts';
import { jobOptions, queueSecret, signPayload } from './jobTrust.ts';
import { toRow } from './queueWorker.ts';

export interface QueueBatchOptions {
  /** redis://HOST:PORT[/DB] */
  readonly url: string;
  /** The run's name (--name): the queue its jobs go to, which its workers take from. */
  readonly name?: string;
  /** snipexec's version, part of the run key. */
  readonly version: string;
  /** The LLM flags of `--mode llm`, sent with each job; the ones that change results are part of the run key. */
  readonly llm?: LlmFlags & Partial<LlmResultOptions>;
  readonly signal?: AbortSignal;
  readonly watch?: ConnectionWatcher;
  readonly onInvalid?: (invalid: InvalidLine) => void;
  /** The run's key and how many jobs were enqueued (not counting the ones already in Redis). */
  readonly onEnqueued?: (info: { runKey: string; jobs: number }) => void;
  /** Pending jobs Redis no longer had (it lost its data: restarted without persistence, flushed), enqueued again. */
  readonly onRequeued?: (jobs: number) => void;
}

/** Jobs added to Redis per round trip. */
const CHUNK = 500;
/** With no result for this long, the producer asks Redis for the pending jobs' state, in case an event was missed. */
const RECONCILE_MS = 5_000;

/**
 * A batch through a queue (`snipexec batch --queue`): one job per snippet, its id the run key and
 * the snippet id (so enqueueing the same run twice adds nothing), then each finished job's row is
 * appended to `out` as it arrives, exactly once per id, and the summary is built from the rows.
 * The same rows and summary as runBatch; workers (`snipexec worker`) run the jobs.
 */
export async function runQueueBatch(dataset: string, runInput: RunOptionsInput, batchInput: BatchOptionsInput, queue: QueueBatchOptions, onProgress?: (p: BatchProgress) => void): Promise<BatchRun & { runKey: string }> {
  const started = Date.now();
  const runOptions = parseRunOptions(runInput);
  const options = parseBatchOptions(batchInput);
  await checkReachable(queue.url);
  const llmKey = runOptions.mode === 'llm' ? resultOptions(queue.llm) : undefined;
  const key = runKey(runOptions, queue.version, llmKey);
  const summary = new SummaryAccumulator();
  const previous = options.out && options.resume ? await readPreviousResults(options.out, summary) : new Set<string>();
  if (options.out && !options.resume && existsSync(options.out)) truncateSync(options.out, 0);

  const connection = watchedConnection(queue.url, { ...queue.watch, onBack: () => { queue.watch?.onBack?.(); wake(); } });
  const bull = new Queue<JobPayload, BatchRow>(queueName(queue.name), { connection });
  // QueueEvents blocks on its connection (XREAD), so it gets one of its own.
  const eventsConnection = watchedConnection(queue.url);
  const events = new QueueEvents(queueName(queue.name), { connection: eventsConnection });
  /** Jobs enqueued whose rows are not written yet: job id to snippet id. */
  const pending = new Map<string, string>();
  let done = 0;
  let skipped = 0;
  let invalidLines = 0;
  let wake = () => {};

  const write = (job: string, row: BatchRow) => {
    const id = pending.get(job);
    if (id === undefined) return; // written already, or not this run's
    pending.delete(job);
    const fixed = { ...row, id };
    if (options.out) appendFileSync(options.out, JSON.stringify(fixed) + '\n');
    summary.add(fixed);
    done++;
    onProgress?.({ done, skipped, last: fixed });
    if (pending.size === 0) wake();
  };
  const failed = (job: string, reason: string) => {
    const id = pending.get(job);
    if (id !== undefined) write(job, toRow(id, internalErrorResult(`the job failed in the queue: ${reason}`)));
  };

  // A job carries the run's behaviour and budgets, never a path or an LLM endpoint, cache or log (jobTrust.ts).
  const carried = jobOptions(runInput, runOptions.mode === 'llm' ? queue.llm : undefined);
  const secret = queueSecret();
  const jobOf = (item: DatasetItem) => {
    const id = jobId(key, item.id);
    const unsigned: JobPayload = { v: PAYLOAD_VERSION, runKey: key, id: item.id, code: item.code, ...(item.lang ? { lang: item.lang } : {}), ...carried };
    const data: JobPayload = secret === undefined ? unsigned : { ...unsigned, sig: signPayload(unsigned, secret) };
    return { name: 'snippet', data, opts: { jobId: id, removeOnComplete: false, removeOnFail: false, attempts: 1 } };
  };

  /**
   * Reads the state of pending jobs from Redis: finished ones missed by the event stream are
   * written; ones Redis no longer has (it lost its data) are enqueued again, read again from the
   * dataset (the producer keeps ids, not code), so the run still ends with every row.
   */
  const reconcile = async () => {
    const ids = [...pending.keys()];
    const lost = new Set<string>();
    for (let i = 0; i < ids.length; i += 100) {
      const slice = ids.slice(i, i + 100);
      const jobs = await Promise.all(slice.map((id) => bull.getJob(id)));
      for (const [k, job] of jobs.entries()) {
        if (job === undefined || job === null) {
          lost.add(slice[k]!);
          continue;
        }
        if (job.id === undefined || job.finishedOn === undefined) continue;
        if (job.returnvalue != null && job.failedReason === undefined) write(job.id, job.returnvalue);
        else if ((await job.getState()) === 'failed') failed(job.id, job.failedReason ?? 'unknown');
      }
    }
    if (lost.size === 0) return;
    let again: ReturnType<typeof jobOf>[] = [];
    let requeued = 0;
    for await (const item of readDataset(dataset, { onInvalid: () => {} })) {
      const job = jobOf(item);
      if (!lost.has(job.opts.jobId) || !pending.has(job.opts.jobId)) continue;
      lost.delete(job.opts.jobId);
      again.push(job);
      if (again.length >= CHUNK) {
        await bull.addBulk(again);
        requeued += again.length;
        again = [];
      }
      if (lost.size === 0) break;
    }
    if (again.length > 0) await bull.addBulk(again);
    requeued += again.length;
    if (requeued > 0) queue.onRequeued?.(requeued);
  };

  events.on('completed', ({ jobId: id, returnvalue }) => {
    if (pending.has(id)) write(id, (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as BatchRow);
  });
  events.on('failed', ({ jobId: id, failedReason }) => {
    if (!pending.has(id)) return;
    // A job that will be tried again (attempts left) is not finished: only a failed one is written.
    void bull.getJob(id).then(async (job) => {
      if (job && (await job.getState()) === 'failed') failed(id, failedReason);
    });
  });
  events.on('error', () => {}); // reconnection is reported by the watched connection

  try {
    await events.waitUntilReady();
    const onInvalid = (invalid: InvalidLine) => {
      invalidLines++;
      queue.onInvalid?.(invalid);
    };
    let taken = 0;
    let enqueued = 0;
    let chunk: DatasetItem[] = [];
    const flush = async () => {
      if (chunk.length === 0) return;
      const jobs = chunk.map((item) => {
        const job = jobOf(item);
        pending.set(job.opts.jobId, item.id);
        return job;
      });
      // A job id already in Redis (the same run enqueued before) is not added again: BullMQ dedups by job id.
      await bull.addBulk(jobs);
      enqueued += jobs.length;
      chunk = [];
    };
    for await (const item of readDataset(dataset, { onInvalid })) {
      if (queue.signal?.aborted) break;
      if (options.limit !== undefined && taken >= options.limit) break;
      taken++;
      if (previous.has(item.id)) {
        skipped++;
        continue;
      }
      chunk.push(item);
      if (chunk.length >= CHUNK) await flush();
    }
    await flush();
    queue.onEnqueued?.({ runKey: key, jobs: enqueued });
    // Jobs finished before this producer listened (an earlier enqueue of the same run) are read from Redis.
    await reconcile();
    while (pending.size > 0 && !queue.signal?.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RECONCILE_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        queue.signal?.addEventListener('abort', wake, { once: true });
      });
      wake = () => {};
      if (pending.size > 0 && !queue.signal?.aborted) await reconcile();
    }
  } finally {
    await events.close();
    await bull.close();
    // Connections handed to BullMQ are the caller's to close.
    connection.disconnect();
    eventsConnection.disconnect();
  }
  const figures = summary.result(runOptions.mode, Date.now() - started, done);
  return { summary: { ...figures, invalidLines, ...(queue.signal?.aborted ? { interrupted: true as const } : {}) }, ran: done, skipped, runKey: key };
}

function resultOptions(llm: QueueBatchOptions['llm']): LlmResultOptions | undefined {
  if (llm === undefined) return undefined;
  const { model, temperature, maxCallsPerSnippet, maxTokensPerSnippet, maxCompletionTokens } = llm;
  return { model, temperature, maxCallsPerSnippet, maxTokensPerSnippet, maxCompletionTokens } as LlmResultOptions;
}
