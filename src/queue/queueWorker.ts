import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { runOne, internalErrorResult } from '../batch/runBatch.ts';
import type { BatchRow } from '../core/batchSummary.ts';
import type { RunDependencies } from '../engine/runSnippet.ts';
import { llmOptionsFromEnv, type LlmFlags } from '../llm/llmOptions.ts';
import { LlmEnvironment } from '../llm/llmSession.ts';
import type { RunResult } from '../core/runResult.ts';
import type { RunOptionsInput } from '../core/options.ts';
import { jobPayloadSchema, queueName, type JobPayload } from './jobPayload.ts';
import { llmFlagsForJob, runOptionsForJob, signatureHolds } from './jobTrust.ts';
import { RedisBudget } from './redisBudget.ts';
import { watchedConnection, type ConnectionWatcher } from './redisConnection.ts';

export interface QueueWorkerOptions {
  /** The run's name (--name): the queue the worker takes jobs from. */
  readonly name?: string;
  /** Jobs run at once, each in its own isolate. */
  readonly concurrency?: number;
  /**
   * How long a job's lock lasts without renewal, and how often stalled jobs are looked for: a worker
   * killed mid-job has its jobs taken by another one after about twice this (BullMQ's default, 30 s).
   */
  readonly stalledIntervalMs?: number;
  /** Times a job may stall (its worker died) before it is failed, and written as internal-error. */
  readonly maxStalledCount?: number;
  /**
   * This machine's LLM settings: every one of them (cache, log, timeouts, retries, caps) is the
   * worker's; a job brings only its model and temperature (used where these set none) and smaller caps.
   */
  readonly llm?: LlmFlags;
  /** The worker's budgets (--timeout, --memory …, defaults filled in): a job may ask only for less. Its module directories are the only ones used. */
  readonly limits?: RunOptionsInput;
  /** The shared secret (SNIPEXEC_QUEUE_SECRET): a job without the producer's HMAC under it is refused unrun. */
  readonly secret?: string;
  readonly logger?: Logger;
  readonly watch?: ConnectionWatcher;
  /** Told of each job finished, with its row. */
  readonly onJob?: (row: BatchRow) => void;
}

export interface QueueWorker {
  /** Resolves when the worker is connected and takes jobs. */
  readonly ready: Promise<void>;
  /** Finishes the jobs in hand, takes no new ones, and closes the connections. */
  close(): Promise<void>;
}

/**
 * A worker of queued batches (`snipexec worker`): it takes jobs from the run's queue and runs each
 * with the same engine as a local batch, one isolate per job. The job's row is its return value,
 * which the producer writes to --out. A payload this version cannot read gets an error row.
 */
export function startQueueWorker(url: string, options: QueueWorkerOptions = {}): QueueWorker {
  const connection = watchedConnection(url, options.watch);
  const environments = new Map<string, LlmEnvironment>();
  const stalledInterval = options.stalledIntervalMs ?? 30_000;
  const worker = new Worker<unknown, BatchRow>(
    queueName(options.name),
    async (job: Job<unknown, BatchRow>) => {
      const row = await runJob(job, options, (payload) => dependencies(payload, connection, environments, options));
      options.onJob?.(row);
      return row;
    },
    {
      connection,
      concurrency: options.concurrency ?? 2,
      lockDuration: stalledInterval,
      stalledInterval,
      maxStalledCount: options.maxStalledCount ?? 1,
    },
  );
  worker.on('error', (error) => options.logger?.warn({ err: error }, 'worker error'));
  return {
    ready: worker.waitUntilReady().then(() => undefined),
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}

async function runJob(job: Job<unknown, BatchRow>, options: QueueWorkerOptions, deps: (payload: JobPayload) => RunDependencies): Promise<BatchRow> {
  const data = job.data as { id?: unknown } | null | undefined;
  const id = typeof data?.id === 'string' ? data.id : String(job.id);
  const parsed = jobPayloadSchema.safeParse(job.data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ');
    return toRow(id, internalErrorResult(`malformed job payload (written by another snipexec version?): ${problems}`));
  }
  const payload = parsed.data;
  // Checked on the data as Redis handed it: the parsed payload has the schema's defaults filled in.
  if (options.secret !== undefined && !signatureHolds(job.data as Record<string, unknown>, options.secret)) {
    options.logger?.warn({ job: job.id }, 'job refused: not signed with this worker\'s SNIPEXEC_QUEUE_SECRET');
    return toRow(id, internalErrorResult('job refused: it is not signed with the shared secret (SNIPEXEC_QUEUE_SECRET) of this worker'));
  }
  const item = { id: payload.id, code: payload.code, ...(payload.lang ? { lang: payload.lang } : {}) };
  return toRow(payload.id, await runOne(item, runOptionsForJob(payload.run, options.limits ?? {}), deps(payload)));
}

/** A job's engine dependencies: for --mode llm, the run's LLM environment, its batch caps counted in Redis. */
function dependencies(payload: JobPayload, redis: Redis, environments: Map<string, LlmEnvironment>, options: QueueWorkerOptions): RunDependencies {
  const logger = options.logger ? { logger: options.logger } : {};
  if (payload.run.mode !== 'llm') return logger;
  let llm = environments.get(payload.runKey);
  if (llm === undefined) {
    // The endpoint, key, cache and log are this machine's; the job brings its model and smaller caps at most.
    const settings = llmOptionsFromEnv(process.env, llmFlagsForJob(payload.llm, options.llm ?? {}, process.env));
    const budget = new RedisBudget(redis, payload.runKey, settings.maxCallsPerBatch, settings.maxTokensPerBatch);
    llm = new LlmEnvironment(settings, { ...logger, batchBudget: budget });
    environments.set(payload.runKey, llm);
  }
  return { llm };
}

/** A result as a row of --out: the programs stay out, as in a local batch. */
export function toRow(id: string, result: RunResult): BatchRow {
  const { program: _program, types: _types, detail: _detail, ...json } = result;
  return { id, ...json };
}
