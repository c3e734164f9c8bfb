import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { siblingModule } from '../core/moduleFile.ts';
import type { RunOptionsInput } from '../core/options.ts';
import type { RunResult } from '../core/runResult.ts';
import type { DatasetItem } from './readDataset.ts';

/** What the pool sends a worker process: one snippet of the batch, numbered for its reply. */
export interface PoolRequest {
  readonly n: number;
  readonly item: DatasetItem;
  readonly runInput: RunOptionsInput;
}

/** A worker process's answer: the snippet's result without its `detail` (what JSON output holds; `detail` is optional). */
export interface PoolReply {
  readonly n: number;
  readonly result: RunResult;
}

/** The worker processes' entry (poolWorker.ts, or its build). */
const WORKER = fileURLToPath(siblingModule(import.meta.url, './poolWorker'));

interface Worker {
  readonly process: ChildProcess;
  readonly pending: Map<number, { resolve: (r: RunResult) => void; reject: (e: Error) => void }>;
  ended: boolean;
}

/**
 * A batch's snippets shared over child processes (`--processes`). One process runs its snippets'
 * isolates on threads of their own, but everything else (Babel, each run's context and runtime
 * start, the value book) on its one main thread, so it stays near 1.3–1.7 cores whatever the
 * concurrency (eval/README.md). Each worker runs a snippet as a local batch does (runOne) and sends
 * back its result over IPC, without its `detail` (coverage counters and program builders for
 * reports made in the same process). A snippet goes to the worker with the fewest in flight. A worker
 * that ends while it runs snippets fails them (the batch writes them as internal errors) and is
 * replaced for the next ones. Workers ignore SIGINT and SIGTERM (a terminal's interrupt reaches the
 * whole process group): the batch stops as it does in one process, finishing what runs; closing the
 * pool disconnects them, and they end (a worker still there after the grace is killed).
 */
export class SnippetProcessPool {
  private readonly workers: Worker[] = [];
  private n = 0;
  private closed = false;
  /** The pids of every worker started, in order. */
  readonly pids: number[] = [];
  /** How many snippets each worker (by pid) answered. */
  readonly answered = new Map<number, number>();

  constructor(size: number) {
    for (let i = 0; i < size; i++) this.workers.push(this.start());
  }

  /** Runs one snippet in a worker: its result (no `detail`), or a rejection when the worker ended first. */
  run(item: DatasetItem, runInput: RunOptionsInput): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error('the batch worker processes were closed'));
    const at = this.leastBusy();
    if (this.workers[at]!.ended) this.workers[at] = this.start();
    const worker = this.workers[at]!;
    const n = this.n++;
    return new Promise<RunResult>((resolve, reject) => {
      worker.pending.set(n, { resolve, reject });
      worker.process.send({ n, item, runInput } satisfies PoolRequest, (error) => {
        if (error && worker.pending.delete(n)) reject(new Error(`a batch worker process could not take the snippet: ${error.message}`));
      });
    });
  }

  /** Disconnects the workers (they end once idle) and kills any still there after `graceMs`. */
  async close(graceMs = 5_000): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map(async (w) => {
      if (w.ended) return;
      const ended = new Promise<void>((resolve) => w.process.once('exit', () => resolve()));
      if (w.process.connected) w.process.disconnect();
      const timer = setTimeout(() => w.process.kill('SIGKILL'), graceMs);
      await ended;
      clearTimeout(timer);
    }));
  }

  private leastBusy(): number {
    let best = 0;
    for (let i = 1; i < this.workers.length; i++) {
      const w = this.workers[i]!;
      const b = this.workers[best]!;
      if ((w.ended ? 0 : w.pending.size) < (b.ended ? 0 : b.pending.size)) best = i;
    }
    return best;
  }

  private start(): Worker {
    // stdout ignored (the library prints nothing; a report on the parent's stdout stays whole), stderr shared (a crash shows).
    const child = fork(WORKER, [], { execArgv: ['--no-node-snapshot'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const worker: Worker = { process: child, pending: new Map(), ended: false };
    if (child.pid !== undefined) this.pids.push(child.pid);
    const end = (why: string) => {
      if (worker.ended) return;
      worker.ended = true;
      for (const p of worker.pending.values()) p.reject(new Error(`a batch worker process ended (${why}) while it ran the snippet`));
      worker.pending.clear();
    };
    child.on('message', (m: PoolReply) => {
      const p = worker.pending.get(m.n);
      if (!p) return;
      worker.pending.delete(m.n);
      if (child.pid !== undefined) this.answered.set(child.pid, (this.answered.get(child.pid) ?? 0) + 1);
      p.resolve(m.result);
    });
    child.on('exit', (code, signal) => end(signal ?? `exit code ${code}`));
    child.on('error', (error) => end(error.message));
    return worker;
  }
}
