import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Queue, QueueEvents } from 'bullmq';
import type { BatchRow } from '../src/core/batchSummary.ts';
import { queueName } from '../src/queue/jobPayload.ts';
import { runOptionsForJob, signPayload } from '../src/queue/jobTrust.ts';
import { startQueueWorker, type QueueWorkerOptions } from '../src/queue/queueWorker.ts';
import { printableUrl } from '../src/queue/redisConnection.ts';
import { NO_REDIS, startRedis, type RedisServer } from './redisServer.ts';

/**
 * Anyone who can write to the run's Redis can enqueue a job. The worker takes the snippet from it
 * and nothing else of consequence: budgets only smaller than its own, no path, no LLM setting but
 * model and caps, and with a shared secret only jobs the producer signed. Each job here is written
 * straight to Redis, as an attacker would.
 */
const dir = mkdtempSync(join(tmpdir(), 'snipexec-hostile-queue-'));
let redis: RedisServer | undefined;
before(async () => {
  if (!NO_REDIS) redis = await startRedis();
});
after(async () => {
  await redis?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

let runs = 0;
/** Runs `jobs` through a fresh worker with `options` on a queue of their own; returns each job's row. */
async function throughWorker(options: Omit<QueueWorkerOptions, 'name'>, jobs: readonly Record<string, unknown>[]): Promise<BatchRow[]> {
  const name = `hostile-${++runs}`;
  const connection = { host: '127.0.0.1', port: redis?.port ?? 0 };
  const queue = new Queue(queueName(name), { connection });
  const events = new QueueEvents(queueName(name), { connection });
  const worker = startQueueWorker(redis?.url ?? '', { ...options, name, concurrency: 1 });
  try {
    await Promise.all([events.waitUntilReady(), worker.ready]);
    const added = [];
    for (const data of jobs) added.push(await queue.add('snippet', data));
    const rows: BatchRow[] = [];
    for (const job of added) rows.push((await job.waitUntilFinished(events, 120_000)) as BatchRow);
    return rows;
  } finally {
    await worker.close();
    await events.close();
    await queue.close();
  }
}

const job = (id: string, code: string, extra: Record<string, unknown> = {}) => ({ v: 1, runKey: 'k', id, code, run: { mode: 'none' }, ...extra });

test('hostile queue: a job asking 4 GB of memory runs under the worker\'s --memory and ends memory-limit', { skip: NO_REDIS, timeout: 180_000 }, async () => {
  const bomb = 'const keep = [];\nfor (;;) keep.push(new Array(1 << 20).fill(1.5));';
  const [row] = await throughWorker({ limits: { memoryLimitMb: 64, timeoutMs: 60_000 } }, [job('bomb', bomb, { run: { mode: 'none', memoryLimitMb: 4096, timeoutMs: 600_000, totalTimeoutMs: 3_600_000 } })]);
  assert.equal(row?.status, 'memory-limit', JSON.stringify(row?.errors));
});

test('hostile queue: a job asking a 10-minute timeout runs under the worker\'s --timeout', { skip: NO_REDIS, timeout: 180_000 }, async () => {
  const [row] = await throughWorker({ limits: { timeoutMs: 250 } }, [job('spin', 'while (true) {}', { run: { mode: 'none', timeoutMs: 600_000, totalTimeoutMs: 3_600_000 } })]);
  assert.equal(row?.status, 'timeout', JSON.stringify(row?.errors));
});

test('hostile queue: a job asking 64 MB of console keeps the worker\'s 64 KiB', { skip: NO_REDIS, timeout: 180_000 }, async () => {
  const [row] = await throughWorker({}, [job('loud', 'const s = "x".repeat(1e6);\nfor (let i = 0; i < 4; i++) console.log(s);', { run: { mode: 'none', maxConsoleBytes: 64 * 1024 * 1024 } })]);
  assert.equal(row?.status, 'completed');
  assert.match(row?.stdout ?? '', /^x{65536}\n\[snipexec: \d+ more bytes of console output dropped\]\n$/);
});

test('hostile queue: a job may ask for less than the worker gives', () => {
  const options = runOptionsForJob({ timeoutMs: 200, memoryLimitMb: 4096 }, { timeoutMs: 1_000, memoryLimitMb: 64 });
  assert.equal(options.timeoutMs, 200);
  assert.equal(options.memoryLimitMb, 64);
  assert.equal(options.maxConsoleBytes, 64 * 1024, 'a budget the job does not name is the worker\'s');
});

test('hostile queue: a job carrying a path, an LLM cache or log, or an unknown key is refused unrun and writes nothing', { skip: NO_REDIS, timeout: 180_000 }, async () => {
  const cache = join(dir, 'planted-cache');
  const log = join(dir, 'planted.log');
  const marker = 'console.log("ran")';
  const rows = await throughWorker({}, [
    job('cache', marker, { run: { mode: 'llm' }, llm: { cacheDir: cache, model: 'm' } }),
    job('log', marker, { llm: { logFile: log } }),
    job('endpoint', marker, { llm: { baseURL: 'http://evil.example/v1' } }),
    job('modules', marker, { run: { mode: 'none', modulesDirs: ['/'] } }),
    job('extra', marker, { cwd: '/' }),
    job('fine', marker),
  ]);
  assert.deepEqual(rows.map((r) => [r.id, r.status]), [['cache', 'internal-error'], ['log', 'internal-error'], ['endpoint', 'internal-error'], ['modules', 'internal-error'], ['extra', 'internal-error'], ['fine', 'completed']]);
  for (const r of rows.slice(0, 5)) assert.match(r.errors[0]?.message ?? '', /malformed job payload/);
  assert.equal(rows[5]?.stdout, 'ran\n');
  assert.equal(existsSync(cache), false, 'no cache directory made');
  assert.equal(existsSync(log), false, 'no log written');
});

test('hostile queue: with a shared secret, unsigned, forged and tampered jobs are refused; a signed one runs', { skip: NO_REDIS, timeout: 180_000 }, async () => {
  const secret = 'queue-secret-1';
  const signed = job('signed', 'console.log(1 + 1)');
  const tampered = { ...job('tampered', 'console.log(1 + 1)'), sig: signPayload(job('tampered', 'console.log(1 + 1)'), secret), code: 'console.log("tampered")' };
  const rows = await throughWorker({ secret }, [
    job('unsigned', 'console.log("unsigned")'),
    { ...job('forged', 'console.log("forged")'), sig: signPayload(job('forged', 'console.log("forged")'), 'another-secret') },
    { ...job('junk', 'console.log("junk")'), sig: 'zz' },
    tampered,
    { ...signed, sig: signPayload(signed, secret) },
  ]);
  assert.deepEqual(rows.map((r) => [r.id, r.status, r.stdout]), [['unsigned', 'internal-error', ''], ['forged', 'internal-error', ''], ['junk', 'internal-error', ''], ['tampered', 'internal-error', ''], ['signed', 'completed', '2\n']]);
  for (const r of rows.slice(0, 4)) assert.match(r.errors[0]?.message ?? '', /job refused: it is not signed/);
});

test('hostile queue: a Redis URL is printed without its password', () => {
  assert.equal(printableUrl('redis://worker:s3cret-pass@127.0.0.1:6380/2'), 'redis://worker:***@127.0.0.1:6380/2');
  assert.equal(printableUrl('redis://127.0.0.1:6379'), 'redis://127.0.0.1:6379');
});
