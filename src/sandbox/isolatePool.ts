import ivm from 'isolated-vm';
import { RUNTIME_FILENAME } from '../protocol/runtime.ts';
import type { StartupSnapshot } from './runtimeBundle.ts';

/**
 * Warm isolates: an isolate made from a startup snapshot is kept after a run and hosts the next
 * run of the same snapshot and memory limit, in a fresh context (made from the snapshot too), so a
 * run pays for a context and the runtime's start, not for an isolate. Contexts of one isolate
 * share what is not in a context: the heap (and the memory V8 keeps outside it), the task queue,
 * the Symbol.for registry. So an isolate hosts another run only when the one that ended leaves
 * nothing there (runInIsolate's verdict): it ended by itself, the runtime noted nothing whose
 * effects outlive its context (RuntimeReport.tainted), nothing is left pending, the heap after it
 * holds at most MAX_HEAP_SHARE of the limit, and it is not the isolate's last run (maxRuns).
 * Anything else disposes it.
 *
 * An isolate kept idle makes its next run's context at once, on the isolate's own thread, and
 * evaluates the runtime's script in it (PooledIsolate.prepare): that work, the same for every
 * run, leaves the Node main thread, which the other runs in flight share. Nothing else runs in
 * that context before its run: the run still gets a context made for it alone.
 */

/** How many runs one isolate hosts at most (eval/README.md, "warm isolates", measured 1 to unlimited). */
export const DEFAULT_MAX_RUNS = 50;
/** The environment variable that sets maxRuns: 1 gives each run an isolate of its own, as before warm isolates. */
export const MAX_RUNS_VARIABLE = 'SNIPEXEC_ISOLATE_RUNS';
/** What share of the memory limit the heap may hold after a run (garbage included) for the isolate to host another. */
export const MAX_HEAP_SHARE = 0.5;
/** Idle isolates kept at most in all, whatever the number of runs in flight and of snapshots. */
export const MAX_IDLE = 8;
/** An isolate idle this long is disposed. */
export const IDLE_MS = 15_000;

/** Why an isolate was disposed rather than kept for another run. */
export type DiscardReason = 'timeout' | 'memory-limit' | 'internal-error' | 'failed' | 'tainted' | 'heap' | 'runs' | 'disposed' | 'idle' | 'surplus' | 'drained';

/** How long the runtime's script may take to evaluate in a prepared context (about a millisecond). */
const PREPARE_TIMEOUT_MS = 2_000;

/** A fresh context of the isolate with the runtime's script evaluated in it: `start` (StartRuntime) is not called yet. */
export interface PreparedContext {
  readonly context: ivm.Context;
  readonly start: ivm.Reference<unknown>;
}

/** What a run is told of the isolate it runs in, and what the pool tells a watcher. */
export type PoolEvent =
  | { readonly kind: 'run'; readonly isolate: number; readonly run: number }
  | { readonly kind: 'prepared'; readonly isolate: number; readonly run: number }
  | { readonly kind: 'discard'; readonly isolate: number; readonly reason: DiscardReason };

/** An isolate of the pool, lent to one run at a time. */
export class PooledIsolate {
  readonly isolate: ivm.Isolate;
  readonly snapshot: StartupSnapshot;
  readonly memoryLimitMb: number;
  /** Its number in this process (1, 2, …): tests see by it which isolate a run had. */
  readonly id: number;
  /** The runs it hosted, the one in progress included. */
  runs = 0;
  idleSince = 0;
  /** Scripts compiled in it, by filename: a script is bound to no context, so each run's context runs it again without compiling. */
  private readonly scripts = new Map<string, { readonly key: string; readonly script: ivm.Script }>();
  /** The runtime's script in this isolate (one of `scripts`), which prepare evaluates; set by runtimeScript (a process has one runtime source, runtimeSource, so it is every run's). */
  private runtime: ivm.Script | undefined;
  /** The next run's context, being made on the isolate's thread (prepare); undefined when none is. */
  private next: Promise<PreparedContext> | undefined;

  constructor(snapshot: StartupSnapshot, memoryLimitMb: number, id: number) {
    this.isolate = new ivm.Isolate({ memoryLimit: memoryLimitMb, snapshot: snapshot.blob });
    this.snapshot = snapshot;
    this.memoryLimitMb = memoryLimitMb;
    this.id = id;
  }

  /**
   * The script named `filename` compiled in this isolate (by `compile`, unless one was for the same
   * `key`: the code, or the bundle's code it is made of, compared as strings, which costs nothing
   * for the same string); the isolate keeps it: never release it.
   */
  script(filename: string, key: string, compile: () => ivm.Script): ivm.Script {
    const known = this.scripts.get(filename);
    if (known !== undefined && known.key === key) return known.script;
    known?.script.release();
    const script = compile();
    this.scripts.set(filename, { key, script });
    return script;
  }

  /**
   * Starts making the next run's context and evaluating the runtime's script in it, asynchronously:
   * on the isolate's thread, while the main thread goes on. Does nothing before a run has compiled
   * the runtime here, or when a context is on its way already.
   */
  prepare(): void {
    const runtime = this.runtime;
    if (runtime === undefined || this.next !== undefined || this.isolate.isDisposed) return;
    const next = (async () => {
      const context = await this.isolate.createContext();
      try {
        const start = (await runtime.run(context, { timeout: PREPARE_TIMEOUT_MS, reference: true })) as ivm.Reference<unknown>;
        return { context, start };
      } catch (error) {
        context.release();
        throw error;
      }
    })();
    // A context that could not be made is made by the run itself (takePrepared gives undefined).
    next.catch(() => undefined);
    this.next = next;
  }

  /** The context prepare made for this run (waiting for it if it is still on its way), or undefined: the run makes one itself. */
  async takePrepared(): Promise<PreparedContext | undefined> {
    const next = this.next;
    this.next = undefined;
    if (next === undefined) return undefined;
    try {
      const prepared = await next;
      counts.prepared++;
      emit({ kind: 'prepared', isolate: this.id, run: this.runs });
      return prepared;
    } catch {
      return undefined;
    }
  }

  /** The runtime's script compiled in this isolate (script, under RUNTIME_FILENAME): the one prepare evaluates in the next context. */
  runtimeScript(key: string, compile: () => ivm.Script): ivm.Script {
    this.runtime = this.script(RUNTIME_FILENAME, key, compile);
    return this.runtime;
  }

  dispose(): void {
    const next = this.next;
    this.next = undefined;
    next?.then(releasePrepared, () => undefined);
    if (!this.isolate.isDisposed) this.isolate.dispose();
    // Disposing the isolate invalidated them; release drops the host's handles.
    for (const { script } of this.scripts.values()) script.release();
    this.scripts.clear();
  }
}

/** Drops the host's handles on a prepared context that no run will use. */
export function releasePrepared({ context, start }: PreparedContext): void {
  start.release();
  context.release();
}

let maxRuns = runsFromEnvironment();
let made = 0;
let inFlight = 0;
/** The most runs in flight at once so far: as many idle isolates are kept, at most. */
let highWater = 0;
/** Most recently returned last. */
const idle: PooledIsolate[] = [];
let sweep: NodeJS.Timeout | undefined;
const watchers = new Set<(event: PoolEvent) => void>();
const counts = { made: 0, reused: 0, prepared: 0, discarded: {} as Partial<Record<DiscardReason, number>> };

function runsFromEnvironment(): number {
  const raw = process.env[MAX_RUNS_VARIABLE];
  if (raw === undefined || raw === '') return DEFAULT_MAX_RUNS;
  const n = raw === 'unlimited' ? Infinity : Number(raw);
  return n >= 1 ? Math.floor(n) : DEFAULT_MAX_RUNS;
}

/** Sets how many runs one isolate hosts at most (1: none is reused); returns the previous value. Drains the pool. */
export function setMaxIsolateRuns(runs: number): number {
  const before = maxRuns;
  maxRuns = runs >= 1 ? Math.floor(runs) : 1;
  drainIsolatePool();
  return before;
}

/**
 * An isolate for one run of `snapshot` with this memory limit: an idle one the pool kept, else a
 * new one. Hand it back with returnIsolate when the run ends, in a `finally`.
 */
export function takeIsolate(snapshot: StartupSnapshot, memoryLimitMb: number): PooledIsolate {
  let lease: PooledIsolate | undefined;
  for (let i = idle.length - 1; i >= 0; i--) {
    const candidate = idle[i] as PooledIsolate;
    if (candidate.snapshot !== snapshot || candidate.memoryLimitMb !== memoryLimitMb) continue;
    idle.splice(i, 1);
    if (candidate.isolate.isDisposed) {
      discard(candidate, 'disposed');
      continue;
    }
    lease = candidate;
    counts.reused++;
    break;
  }
  if (lease === undefined) {
    lease = new PooledIsolate(snapshot, memoryLimitMb, ++made);
    counts.made++;
  }
  // Counted once the isolate is there: a new one that could not be made is no run in flight.
  inFlight++;
  highWater = Math.max(highWater, inFlight);
  lease.runs++;
  emit({ kind: 'run', isolate: lease.id, run: lease.runs });
  return lease;
}

/**
 * Ends a run's lease: `reason` says why the isolate must go (runInIsolate's verdict on the run),
 * undefined when the run left nothing in it; the pool then still disposes it past maxRuns or when
 * its heap holds more than MAX_HEAP_SHARE of the limit, and keeps it idle otherwise.
 */
export function returnIsolate(lease: PooledIsolate, reason: DiscardReason | undefined): void {
  inFlight--;
  const why = reason ?? keepOrWhy(lease);
  if (why !== undefined) return discard(lease, why);
  lease.idleSince = Date.now();
  idle.push(lease);
  // Per snapshot and limit, as many as ran at once (runs of other environment sets come between them); MAX_IDLE in all.
  const same = idle.filter((i) => i.snapshot === lease.snapshot && i.memoryLimitMb === lease.memoryLimitMb);
  if (same.length > Math.max(1, highWater)) drop(same[0] as PooledIsolate, 'surplus');
  while (idle.length > MAX_IDLE) drop(idle[0] as PooledIsolate, 'surplus');
  if (idle.includes(lease)) lease.prepare();
  scheduleSweep();
}

function keepOrWhy(lease: PooledIsolate): DiscardReason | undefined {
  if (lease.isolate.isDisposed) return 'disposed';
  if (lease.runs >= maxRuns) return 'runs';
  try {
    const heap = lease.isolate.getHeapStatisticsSync();
    if (heap.used_heap_size + heap.externally_allocated_size > MAX_HEAP_SHARE * lease.memoryLimitMb * 1024 * 1024) return 'heap';
  } catch {
    return 'disposed';
  }
  return undefined;
}

/** Takes an idle isolate out of the pool and disposes it. */
function drop(lease: PooledIsolate, reason: DiscardReason): void {
  idle.splice(idle.indexOf(lease), 1);
  discard(lease, reason);
}

function discard(lease: PooledIsolate, reason: DiscardReason): void {
  counts.discarded[reason] = (counts.discarded[reason] ?? 0) + 1;
  lease.dispose();
  emit({ kind: 'discard', isolate: lease.id, reason });
}

/** Disposes the isolates idle for IDLE_MS; its timer never keeps the process alive. */
function scheduleSweep(): void {
  if (sweep !== undefined || idle.length === 0) return;
  sweep = setTimeout(() => {
    sweep = undefined;
    const now = Date.now();
    for (let i = idle.length - 1; i >= 0; i--) {
      const lease = idle[i] as PooledIsolate;
      if (now - lease.idleSince < IDLE_MS) continue;
      idle.splice(i, 1);
      discard(lease, 'idle');
    }
    scheduleSweep();
  }, IDLE_MS);
  sweep.unref();
}

/** Disposes every idle isolate (the ones lent to runs in progress go when those end) and forgets how many ran at once: for tests and teardown. */
export function drainIsolatePool(): void {
  while (idle.length > 0) discard(idle.pop() as PooledIsolate, 'drained');
  highWater = inFlight;
  if (sweep !== undefined) clearTimeout(sweep);
  sweep = undefined;
}

/** How the pool went in this process: isolates made, runs in a reused isolate, runs in a context prepared ahead, isolates disposed by reason, and idle now. */
export function isolatePoolStats(): { made: number; reused: number; prepared: number; discarded: Partial<Record<DiscardReason, number>>; idle: number; maxRuns: number } {
  return { made: counts.made, reused: counts.reused, prepared: counts.prepared, discarded: { ...counts.discarded }, idle: idle.length, maxRuns };
}

/** Calls `watcher` with every lease, context prepared ahead that a run took, and disposal (tests see which isolate a run had, and in what context); returns the way to stop. */
export function watchIsolatePool(watcher: (event: PoolEvent) => void): () => void {
  watchers.add(watcher);
  return () => {
    watchers.delete(watcher);
  };
}

function emit(event: PoolEvent): void {
  for (const watcher of watchers) watcher(event);
}
