import { fork, type ChildProcess } from 'node:child_process';
import pino, { type Logger } from 'pino';
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

/** A line the worker process logged (pino's JSON), for the batch's logger. */
export interface PoolLog {
  readonly log: string;
}

/** How long a disconnected worker has to end before it is killed. */
const STOP_GRACE_MS = 5_000;

/** The worker processes' entry (poolWorker.ts, or its build). */
const WORKER = fileURLToPath(siblingModule(import.meta.url, './poolWorker'));

/** A worker ended while it ran the snippet (`why`: the signal, exit code or error). */
class WorkerEnded extends Error {
  readonly why: string;

  constructor(message: string, why: string) {
    super(message);
    this.why = why;
  }
}

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
 * reports made in the same process). A snippet goes to the worker with the fewest in flight. When a
 * worker ends while it runs snippets, each of them runs once more alone in a worker of its own (a
 * snippet that ended a worker ends only its own then; one that ends that one too is written as an
 * internal error), and the worker is replaced for the next ones. Workers ignore SIGINT and SIGTERM
 * (a terminal's interrupt reaches the whole process group): the batch stops as it does in one
 * process, finishing what runs; closing the pool disconnects them, and they end (a worker still
 * there after the grace is killed).
 */
export class SnippetProcessPool {
  private readonly workers: Worker[] = [];
  private n = 0;
  private closed = false;
  /** The pids of every worker started, in order. */
  readonly pids: number[] = [];
  /** How many snippets each worker (by pid) answered. */
  readonly answered = new Map<number, number>();
  /** Snippets run again, alone, after their worker ended while it ran them. */
  retried = 0;

  private readonly logger: Logger | undefined;

  /** `logger`: the batch's; each worker logs at its level, and its lines come here with the worker's pid (`worker`). */
  constructor(size: number, logger?: Logger) {
    this.logger = logger;
    for (let i = 0; i < size; i++) this.workers.push(this.start());
  }

  /**
   * Runs one snippet in a worker: its result (no `detail`). When the worker ends while it runs
   * the snippet, the snippet runs once more, alone in a worker of its own, so that a snippet that
   * ended its worker ends only that one; the promise rejects when that worker ends too.
   */
  async run(item: DatasetItem, runInput: RunOptionsInput): Promise<RunResult> {
    if (this.closed) throw new Error('the batch worker processes were closed');
    const at = this.leastBusy();
    if (this.workers[at]!.ended) this.workers[at] = this.start();
    try {
      return await this.send(this.workers[at]!, item, runInput);
    } catch (error) {
      if (!(error instanceof WorkerEnded) || this.closed) throw error;
      this.retried++;
      const alone = this.start();
      try {
        return await this.send(alone, item, runInput);
      } catch (again) {
        throw again instanceof WorkerEnded ? new WorkerEnded(`${error.message}, and again alone in another (${again.why})`, again.why) : again;
      } finally {
        await this.stop(alone, STOP_GRACE_MS);
      }
    }
  }

  private send(worker: Worker, item: DatasetItem, runInput: RunOptionsInput): Promise<RunResult> {
    const n = this.n++;
    return new Promise<RunResult>((resolve, reject) => {
      worker.pending.set(n, { resolve, reject });
      worker.process.send({ n, item, runInput } satisfies PoolRequest, (error) => {
        if (error && worker.pending.delete(n)) reject(new Error(`a batch worker process could not take the snippet: ${error.message}`));
      });
    });
  }

  /** Disconnects the workers (they end once idle) and kills any still there after `graceMs`. */
  async close(graceMs = STOP_GRACE_MS): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => this.stop(w, graceMs)));
  }

  /** Disconnects a worker (it ends once idle) and kills it if it is still there after `graceMs`. */
  private async stop(w: Worker, graceMs: number): Promise<void> {
    if (w.ended) return;
    const ended = new Promise<void>((resolve) => w.process.once('exit', () => resolve()));
    if (w.process.connected) w.process.disconnect();
    const timer = setTimeout(() => w.process.kill('SIGKILL'), graceMs);
    await ended;
    clearTimeout(timer);
  }

  /** A worker's log line, logged again on the batch's logger at its level, with the worker's pid as `worker`. */
  private relay(line: string): void {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const { level, time: _time, pid, hostname: _hostname, msg, ...fields } = record;
    const method = pino.levels.labels[Number(level)] as pino.Level | undefined;
    if (method && this.logger) this.logger[method]({ ...fields, worker: pid }, typeof msg === 'string' ? msg : '');
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
    const level = this.logger?.level;
    const child = fork(WORKER, level === undefined || level === 'silent' ? [] : [level], { execArgv: ['--no-node-snapshot'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const worker: Worker = { process: child, pending: new Map(), ended: false };
    if (child.pid !== undefined) this.pids.push(child.pid);
    const end = (why: string) => {
      if (worker.ended) return;
      worker.ended = true;
      for (const p of worker.pending.values()) p.reject(new WorkerEnded(`a batch worker process ended (${why}) while it ran the snippet`, why));
      worker.pending.clear();
    };
    child.on('message', (m: PoolReply | PoolLog) => {
      if ('log' in m) return this.relay(m.log);
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
