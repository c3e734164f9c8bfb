// Batches through BullMQ on a real redis-server (test/redisServer.ts): producer and workers are the real CLI.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { SummaryAccumulator } from '../src/batch/summarize.ts';
import type { BatchRow } from '../src/core/batchSummary.ts';
import { parseRunOptions } from '../src/core/options.ts';
import { jobId, runKey } from '../src/queue/runKey.ts';
import { startQueueWorker } from '../src/queue/queueWorker.ts';
import { RedisBudget } from '../src/queue/redisBudget.ts';
import { queueName } from '../src/queue/jobPayload.ts';
import { BIN } from './helpers.ts';
import { NO_REDIS, startRedis, type RedisServer } from './redisServer.ts';

const dir = mkdtempSync(join(tmpdir(), 'snipexec-queue-'));
let redis: RedisServer | undefined;
before(async () => {
  if (!NO_REDIS) redis = await startRedis();
});
/** Every child started, killed after the tests (a failed assertion leaves no worker behind). */
const children: ChildProcess[] = [];
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await redis?.dispose();
  rmSync(dir, { recursive: true, force: true });
});
const url = () => redis?.url ?? 'redis://127.0.0.1:1';

/** The real CLI as a child process (the test's event loop stays free while it runs). */
function start(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['--no-node-snapshot', BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

function worker(name: string): { child: ChildProcess; done: ReturnType<typeof start>['done']; ready: Promise<void> } {
  const w = start(['worker', '--queue', url(), '--name', name, '--concurrency', '2', '--stalled-interval', '2000']);
  const ready = new Promise<void>((resolve, reject) => {
    let err = '';
    w.child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('taking jobs')) resolve();
    });
    void w.done.then((r) => reject(new Error(`worker exited before it was ready: ${r.code} ${r.stderr}`)));
  });
  return { ...w, ready };
}

/** Resolves once the child's stderr (from now on) matches, it exits, or 60 s have passed. */
function stderrSays(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    let err = '';
    const finish = () => {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', finish);
      resolve();
    };
    const onData = (c: Buffer) => {
      err += c.toString();
      if (pattern.test(err)) finish();
    };
    const timer = setTimeout(finish, 60_000);
    child.stderr?.on('data', onData);
    child.once('exit', finish);
  });
}

function rows(file: string): BatchRow[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as BatchRow);
}

/** n small, fast snippets, each with its own branches and a missing value. */
function dataset(file: string, n: number): void {
  const lines = Array.from({ length: n }, (_, i) => JSON.stringify({
    id: `gen:${i}`,
    code: `function f${i}(a) {\n  if (a > ${i % 7}) return a * ${i};\n  return missing${i % 5}.value + a;\n}\nconsole.log(f${i}(input${i % 3}));\n`,
  }));
  writeFileSync(file, lines.join('\n') + '\n');
}

/** The summary's counts and sums (not its timings); ratios of float sums compared to 1e-12. */
function figures(summary: Record<string, unknown>): Record<string, unknown> {
  const { elapsedMs: _e, snippetsPerSecond: _s, ...rest } = summary;
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e12) / 1e12 : v]));
}

async function jobTotal(name: string): Promise<number> {
  const queue = new Queue(queueName(name), { connection: { host: '127.0.0.1', port: redis?.port ?? 0 } });
  try {
    const counts = await queue.getJobCounts();
    return Object.values(counts).reduce((a, b) => a + b, 0);
  } finally {
    await queue.close();
  }
}

test('queue: summaries merge: two halves of the rows give the whole', () => {
  const make = (i: number): BatchRow => ({
    id: String(i), status: i % 4 === 0 ? 'syntax-error' : 'completed', lines: { total: 10, covered: i % 10, measured: [], uncovered: [] },
    branches: { total: 4, covered: i % 4 }, lineCoverage: (i % 10) / 10, branchCoverage: (i % 4) / 4, fullyExecuted: i % 3 === 0, injections: [], errors: [],
    stdout: '', runs: 1, llmCalls: { calls: i, cached: 1, retries: 0, failed: 0, errors: { '429': 1 }, promptTokens: 2, completionTokens: 3, promptTokensCounted: 2, elements: 1, capped: false }, elapsedMs: 1,
  } as BatchRow);
  const whole = new SummaryAccumulator();
  const a = new SummaryAccumulator();
  const b = new SummaryAccumulator();
  for (let i = 0; i < 50; i++) {
    whole.add(make(i));
    (i % 3 === 0 ? a : b).add(make(i));
  }
  assert.deepEqual(figures({ ...a.merge(b).result('trace', 0, 0) }), figures({ ...whole.result('trace', 0, 0) }));
});

test('queue: the run key changes with an option that changes results and with the version, not with their order; job ids carry no ":"', () => {
  const k = runKey(parseRunOptions({ mode: 'trace', seed: 1 }), '0.1.0');
  assert.equal(runKey(parseRunOptions({ seed: 1, mode: 'trace' }), '0.1.0'), k);
  assert.equal(runKey(parseRunOptions({}), '0.1.0'), k, 'the defaults are part of the key');
  assert.notEqual(runKey(parseRunOptions({ mode: 'dummy' }), '0.1.0'), k);
  assert.notEqual(runKey(parseRunOptions({ timeoutMs: 6000 }), '0.1.0'), k);
  assert.notEqual(runKey(parseRunOptions({}), '0.2.0'), k);
  assert.doesNotMatch(jobId(k, 'express@5:lib/a.js:1:f'), /:/);
});

test('queue: Redis unreachable at start is a clear error and exit 2', { timeout: 60_000 }, async () => {
  writeFileSync(join(dir, 'one.jsonl'), '{"id":"a","code":"1"}\n');
  // Both processes at once: each only starts, fails to connect and exits.
  const [r, w] = await Promise.all([
    start(['batch', join(dir, 'one.jsonl'), '--queue', 'redis://127.0.0.1:1', '--out', join(dir, 'none.jsonl')]).done,
    start(['worker', '--queue', 'redis://127.0.0.1:1']).done,
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /Redis at redis:\/\/127\.0\.0\.1:1 is unreachable.*QUEUE_UNREACHABLE/);
  assert.equal(w.code, 2, w.stderr);
  assert.match(w.stderr, /unreachable/);
});

test('queue: 2 worker processes, one killed with SIGKILL while it holds two jobs: --out holds each id once, the summary is the local batch\'s; a second enqueue adds no jobs, another --mode makes a new run', { skip: NO_REDIS, timeout: 600_000 }, async () => {
  // Four snippets that spin until --timeout come first: jobs are taken in order and a worker holds at
  // most 2 (--concurrency 2), so 4 active and none completed means worker 1 holds two of them, for 1.5 s at least: a window polling every 20 ms sees on a loaded machine too.
  const spins = Array.from({ length: 4 }, (_, i) => JSON.stringify({ id: `spin:${i}`, code: 'while (true) {}\n' }));
  const fast = join(dir, 'fast60.jsonl');
  dataset(fast, 60);
  const data = join(dir, 'spin-gen60.jsonl');
  writeFileSync(data, spins.join('\n') + '\n' + readFileSync(fast, 'utf8'));
  const total = 64;
  const options = ['--mode', 'dummy', '--seed', '3', '--timeout', '1500'];
  const w1 = worker('done-when');
  const w2 = worker('done-when');
  await Promise.all([w1.ready, w2.ready]);
  const out = join(dir, 'queued.jsonl');
  const producer = start(['batch', data, ...options, '--queue', url(), '--name', 'done-when', '--out', out, '--json']);
  const queue = new Queue(queueName('done-when'), { connection: { host: '127.0.0.1', port: redis?.port ?? 0 } });
  let held = false;
  try {
    for (let i = 0; i < 2400 && !held; i++) {
      const counts = await queue.getJobCounts('active', 'completed');
      held = counts.active === 4 && counts.completed === 0;
      if (!held) await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await queue.close();
  }
  assert.ok(held, 'the four spinning jobs were in hand, two in each worker');
  w1.child.kill('SIGKILL');
  assert.ok(!existsSync(out) || rows(out).length < total, 'the run was still going when the worker was killed');
  const queued = await producer.done;
  assert.equal(queued.code, 0, queued.stderr);
  const written = rows(out);
  assert.equal(written.length, total);
  assert.equal(new Set(written.map((r) => r.id)).size, total, 'one row per id');
  assert.equal(written.filter((r) => r.status === 'timeout').length, 4, 'every spinning job has its timeout row, the two the killed worker held too');
  const local = start(['batch', data, ...options, '--out', join(dir, 'local.jsonl'), '--json', '--concurrency', '2']);
  const localRun = await local.done;
  assert.equal(localRun.code, 0, localRun.stderr);
  assert.deepEqual(figures(JSON.parse(queued.stdout)), figures(JSON.parse(localRun.stdout)));
  assert.equal((JSON.parse(queued.stdout) as { snippets: number }).snippets, total);

  // The same run again: no job is added, the rows come back from Redis.
  assert.equal(await jobTotal('done-when'), total);
  const again = await start(['batch', data, ...options, '--queue', url(), '--name', 'done-when', '--out', join(dir, 'again.jsonl'), '--json']).done;
  assert.equal(again.code, 0, again.stderr);
  assert.equal(await jobTotal('done-when'), total, 'enqueueing twice adds no jobs');
  assert.equal(rows(join(dir, 'again.jsonl')).length, total);
  // Another --mode is another run: new jobs (5 of them, --limit; the same ids, no spinning one), run by the worker left.
  const other = await start(['batch', fast, '--mode', 'trace', '--seed', '3', '--limit', '5', '--queue', url(), '--name', 'done-when', '--out', join(dir, 'trace.jsonl'), '--json']).done;
  assert.equal(other.code, 0, other.stderr);
  assert.equal(await jobTotal('done-when'), total + 5, 'a changed --mode makes new jobs');
  assert.equal((JSON.parse(other.stdout) as { mode: string }).mode, 'trace');

  // SIGTERM: the worker left finishes what it holds and exits.
  w2.child.kill('SIGTERM');
  const stopped = await w2.done;
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.match(stopped.stderr, /SIGTERM: finishing the jobs in hand[\s\S]*stopped after \d+ jobs/);
});

test('queue: Redis restarted mid-run: producer and worker say so, wait, and go on; no row lost or doubled', { skip: NO_REDIS, timeout: 300_000 }, async () => {
  const data = join(dir, 'gen60.jsonl');
  dataset(data, 60);
  const w = worker('restart');
  await w.ready;
  const out = join(dir, 'restart.jsonl');
  const producer = start(['batch', data, '--mode', 'dummy', '--queue', url(), '--name', 'restart', '--out', out, '--json']);
  for (let i = 0; i < 1200 && !(existsSync(out) && rows(out).length >= 10); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(rows(out).length < 60, 'the run was still going when Redis stopped');
  const noticed = Promise.all([stderrSays(producer.child, /unreachable; retrying/), stderrSays(w.child, /unreachable; retrying/)]);
  await redis?.stop();
  // Down until both have seen it go (the assertions below name the one that did not).
  await noticed;
  await redis?.restart();
  const r = await producer.done;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /unreachable; retrying with backoff[\s\S]*Redis is back; going on/);
  const written = rows(out);
  assert.equal(written.length, 60);
  assert.equal(new Set(written.map((row) => row.id)).size, 60);
  w.child.kill('SIGTERM');
  const stopped = await w.done;
  assert.match(stopped.stderr, /unreachable; retrying with backoff/);
});

test('queue: Redis loses its data while the producer waits: the pending jobs are enqueued again, and every row is written once', { skip: NO_REDIS, timeout: 300_000 }, async () => {
  const data = join(dir, 'gen20.jsonl');
  dataset(data, 20);
  const out = join(dir, 'lost.jsonl');
  const producer = start(['batch', data, '--mode', 'dummy', '--queue', url(), '--name', 'lost', '--out', out, '--json']);
  for (let i = 0; i < 2400 && (await jobTotal('lost')) < 20; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(await jobTotal('lost'), 20, 'the jobs were enqueued');
  // Redis without persistence restarted, or flushed: every job is gone before any worker took one.
  const client = new Redis({ host: '127.0.0.1', port: redis?.port ?? 0 });
  try {
    await client.flushall();
  } finally {
    client.disconnect();
  }
  const w = worker('lost');
  await w.ready;
  const r = await producer.done;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /20 pending jobs were gone from Redis \(its data was lost\); enqueued again/);
  const written = rows(out);
  assert.equal(written.length, 20);
  assert.equal(new Set(written.map((row) => row.id)).size, 20);
  w.child.kill('SIGTERM');
  await w.done;
});

test('queue: a malformed job payload (another version\'s) gets an error row, and the other jobs go on', { skip: NO_REDIS, timeout: 120_000 }, async () => {
  const connection = { host: '127.0.0.1', port: redis?.port ?? 0 };
  const queue = new Queue(queueName('malformed'), { connection });
  const events = new QueueEvents(queueName('malformed'), { connection });
  const w = startQueueWorker(url(), { name: 'malformed', concurrency: 1 });
  try {
    await Promise.all([events.waitUntilReady(), w.ready]);
    const bad = await queue.add('snippet', { v: 0, id: 'old-one', source: 'x = 1' });
    const good = await queue.add('snippet', { v: 1, runKey: 'k', id: 'fine', code: 'const x = 1 + 1;', run: { mode: 'dummy' } });
    const badRow = (await bad.waitUntilFinished(events, 60_000)) as BatchRow;
    assert.equal(badRow.id, 'old-one');
    assert.equal(badRow.status, 'internal-error');
    assert.match(badRow.errors[0]?.message ?? '', /malformed job payload.*v:/);
    const goodRow = (await good.waitUntilFinished(events, 60_000)) as BatchRow;
    assert.equal(goodRow.id, 'fine');
    assert.equal(goodRow.status, 'completed');
  } finally {
    await w.close();
    await events.close();
    await queue.close();
  }
});

test('queue: the LLM batch cap is counted in Redis, so it holds across workers', { skip: NO_REDIS, timeout: 60_000 }, async () => {
  const a = new Redis(url());
  const b = new Redis(url());
  try {
    const one = new RedisBudget(a, 'cap-run', 3);
    const two = new RedisBudget(b, 'cap-run', 3);
    await one.check();
    await two.check();
    await one.check();
    await assert.rejects(two.check(), /batch cap of 3 LLM calls/);
    await assert.rejects(one.check(), /batch cap of 3 LLM calls/);
    assert.equal((await new RedisBudget(a, 'other-run', 3).used()).calls, 0, 'another run has its own count');
  } finally {
    a.disconnect();
    b.disconnect();
  }
});
