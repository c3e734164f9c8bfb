// The queue part of `npm run bench -- --queue` (issue 17): a local redis-server, snipexec worker
// processes, the producer in this process; snippets/s against a local batch at the same concurrency.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readDataset, type DatasetItem } from '../src/batch/readDataset.ts';
import { runBatch } from '../src/batch/runBatch.ts';
import type { RunOptionsInput } from '../src/core/options.ts';
import { runQueueBatch } from '../src/queue/queueBatch.ts';
import { startRedis } from '../test/redisServer.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { BatchRow } from '../src/core/batchSummary.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = fileURLToPath(new URL('../bin/snipexec.cjs', import.meta.url));

export interface QueueFigures {
  readonly snippets: number;
  readonly concurrency: number;
  readonly local: { seconds: number; perSecond: number; runsPerSnippet: number };
  readonly workers: { workers: number; seconds: number; perSecond: number; runsPerSnippet: number }[];
  /** (1 worker's wall time − the local batch's) / snippets. */
  readonly overheadMsPerJob: number;
}

/** The isolate runs a row cost, exploration's included. */
const runsOf = (r: BatchRow): number => r.runs + (r.explored?.runs ?? 0);

function startWorker(url: string, name: string, concurrency: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--no-node-snapshot', BIN, 'worker', '--queue', url, '--name', name, '--concurrency', String(concurrency)], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('taking jobs')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited ${code}: ${err}`)));
  });
}

/** The first `limit` items of the function-body set, run locally, then through the queue with 1 and 2 workers. */
export async function queueThroughput(functions: string, limit: number, concurrency: number, options: Omit<RunOptionsInput, 'mode'>): Promise<QueueFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-bench-queue-'));
  const items: DatasetItem[] = [];
  for await (const item of readDataset(functions)) {
    items.push(item);
    if (items.length >= limit) break;
  }
  const data = join(dir, 'set.jsonl');
  writeFileSync(data, items.map((i) => JSON.stringify(i)).join('\n') + '\n');
  const run = { mode: 'trace' as const, ...options };
  const redis = await startRedis();
  try {
    let t = performance.now();
    let localRuns = 0;
    await runBatch(data, run, { concurrency }, (p) => { localRuns += runsOf(p.last); });
    const localSeconds = (performance.now() - t) / 1000;
    const workers: QueueFigures['workers'] = [];
    for (const n of [1, 2]) {
      const name = `bench-${n}`;
      const procs = await Promise.all(Array.from({ length: n }, () => startWorker(redis.url, name, concurrency)));
      t = performance.now();
      await runQueueBatch(data, run, { out: join(dir, `out-${n}.jsonl`) }, { url: redis.url, name, version: 'bench' });
      const seconds = (performance.now() - t) / 1000;
      const rows = readFileSync(join(dir, `out-${n}.jsonl`), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as BatchRow);
      workers.push({ workers: n, seconds, perSecond: items.length / seconds, runsPerSnippet: rows.reduce((k, r) => k + runsOf(r), 0) / Math.max(1, rows.length) });
      await Promise.all(procs.map((p) => new Promise((r) => { p.once('exit', r); p.kill('SIGTERM'); })));
    }
    const one = workers[0]?.seconds ?? localSeconds;
    return { snippets: items.length, concurrency, local: { seconds: localSeconds, perSecond: items.length / localSeconds, runsPerSnippet: localRuns / items.length }, workers, overheadMsPerJob: ((one - localSeconds) * 1000) / items.length };
  } finally {
    await redis.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
