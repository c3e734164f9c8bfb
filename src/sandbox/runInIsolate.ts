import ivm from 'isolated-vm';
import pino, { type Logger } from 'pino';
import { environmentFilename } from '../protocol/environment.ts';
import { HELPERS_FILENAME, STALL_TURNS, TICK_BACKGROUND, TICK_RAN, type LifecycleDispatch, type LifecycleMethod, type TickOutcome } from '../protocol/runtime.ts';
import type { GuestBundle } from './bundleGuest.ts';
import type { RuntimeConfig, RuntimeReport } from './runtimeConfig.ts';
import { environmentSnapshot } from './environmentSnapshots.ts';
import { callStart, codeCacheOf, compileRuntime, refreshRuntimeCache, runtimeSource } from './runtimeBundle.ts';
import { returnIsolate, takeIsolate, type DiscardReason, type PooledIsolate } from './isolatePool.ts';
import { SharedCounters } from './sharedCounters.ts';
import { configJson } from './configJson.ts';
import { SNIPPET_SCRIPT } from '../protocol/snippetFile.ts';

const MAX_REPORT_BYTES = 8 * 1024 * 1024;
/** How many times drive passes over the targets: each pass reaches the functions the one before made. */
const MAX_DRIVE_PASSES = 4;

export type ExecutionStatus = 'completed' | 'stopped' | 'pending' | 'timeout' | 'memory-limit' | 'internal-error';

export interface Execution {
  /** Uninstrumented definitions, run first as their own script. */
  readonly prelude: string;
  /** Uninstrumented script that hands prelude values to the runtime; not part of --emit. */
  readonly adopt: string;
  /**
   * The script that defines the helpers injected definitions call (src/values/dummyTable.ts), run
   * between the runtime's script and its start, where the runtime evaluated them before; compiled
   * for each context. ('' : none.)
   */
  readonly helpers: string;
  readonly script: string;
  /** Environments (CommonJS guest bundles exporting `setup(host)`), evaluated in order after the runtime and before the prelude. */
  readonly environments: readonly GuestBundle[];
  /**
   * How many of the leading `environments` (the registry's, not installed npm modules) may have their
   * modules evaluated into the isolate's startup snapshot (src/sandbox/environmentSnapshots.ts); 0 when absent.
   */
  readonly snapshotEnvironments?: number;
  /** Where the sandbox notes what only a developer needs (an environment set that could not be snapshotted), at debug level. */
  readonly log?: Logger;
  readonly config: RuntimeConfig;
  readonly timeoutMs: number;
  readonly memoryLimitMb: number;
  readonly maxTimerTicks: number;
  /** Answers a value request from inside the isolate: JSON in, JSON out. */
  readonly onRequest: (json: string) => Promise<string>;
  /** Time spent waiting for value providers (an LLM) so far, in total: the snippet's time does not include it. */
  readonly waitedMs?: () => number;
  /**
   * Runs the environments and the prelude only (a definition check, src/engine/checkDefinition.ts):
   * no snippet, timers or drive. The run is `completed` when the prelude finished.
   */
  readonly preludeOnly?: boolean;
  /** Loops (branch ids) whose entry ends the run as stalled past STALL_TURNS turns (src/engine/endStalledLoops.ts, watchedLoops). */
  readonly watchLoops?: readonly number[];
}

export interface ExecutionResult {
  readonly status: ExecutionStatus;
  readonly report: RuntimeReport | undefined;
  /** Why the sandbox ended the run, when it did. */
  readonly reason?: string;
  /** Environments whose module or setup threw: the run went on without them. */
  readonly environmentFailures?: readonly { readonly name: string; readonly message: string }[];
}

/** The lifecycle's dispatch function the runtime's `start` returns (src/guest/runtime/index.ts). */
type Lifecycle = LifecycleDispatch;

/** How long after the deadline the watchdog disposes an isolate that is still running. */
const WATCHDOG_GRACE_MS = 1_000;

const SILENT = pino({ level: 'silent' });

/** The helpers' scripts compiled so far in this process: each context's is told apart by its number. */
let helperScripts = 0;

/**
 * Runs one execution in a fresh context of a warm isolate, within a deadline; a run past it ends
 * as `timeout` and keeps what it covered and printed until then:
 * - isolated-vm's own timeout on each call into the isolate (script, timer tick) ends code that
 *   spins inside it, promise continuations included, and keeps the isolate, whose report is read;
 * - isolated-vm does not count time the isolate spends blocked on the host, so the host answers a
 *   value request past the deadline with a halt, which the runtime throws (a loop that keeps
 *   asking the host for a value ends too);
 * - a watchdog disposes the isolate WATCHDOG_GRACE_MS after the deadline as the last resort.
 *   The coverage counters live in shared memory (SharedCounters), so they survive that, and a
 *   memory limit; the console output does not.
 * Time spent waiting for a value provider (an LLM) moves the deadline: it is not the snippet's.
 *
 * The isolate comes from the pool (src/sandbox/isolatePool.ts): one made from the startup snapshot
 * of the run's environment set (src/sandbox/environmentSnapshots.ts) and memory limit, idle after
 * an earlier run, or a new one. The context is always new (from the same snapshot): nothing of an
 * earlier run's globals, built-ins or runtime state is in it; the runtime's script, compiled once
 * per isolate, starts again in it. What contexts of one isolate share is why an isolate hosts
 * another run only when the one that ended leaves nothing there: its heap (an earlier run's live
 * data would count against the limit: the heap after a run must hold at most half of it), its task
 * queue (FinalizationRegistry cleanups, Atomics.waitAsync and WebAssembly's asynchronous
 * compilations settle through it, so an earlier snippet's code could run inside a later run: the
 * runtime notes their use, RuntimeReport.tainted, and such an isolate is disposed), its microtask
 * queue (drained by isolated-vm after each call; a run that timed out may leave it full: disposed),
 * and memory outside the heap (shared buffers, WebAssembly memories: noted too). The Symbol.for
 * registry is shared as well, but a registered symbol is a primitive that carries no data and that
 * no context can enumerate: no channel, only memory, which the heap check bounds. Every other end
 * (a timeout, a memory limit, an error of isolated-vm's, exit()) disposes the isolate, and so does
 * its maxRuns-th run. Timers left and a top level still waiting do not (reuseVerdict says why).
 */
export async function runInIsolate(exec: Execution): Promise<ExecutionResult> {
  // Made once per process and environment set, before the run's clock starts.
  const snapshot = await environmentSnapshot(exec.environments.slice(0, exec.snapshotEnvironments ?? 0), { config: exec.config, log: exec.log ?? SILENT });
  const inSnapshot = new Set(snapshot.environments);
  const source = await runtimeSource();
  const counters = new SharedCounters(exec.config.statements, exec.config.branches);
  const waitedBefore = exec.waitedMs?.() ?? 0;
  // Taken after what could throw before the try, so that the finally always gives it back.
  const lease = takeIsolate(snapshot, exec.memoryLimitMb);
  const isolate = lease.isolate;
  // Why the isolate must not host another run; it stays 'failed' unless the run ends as a run should.
  let verdict: DiscardReason | undefined = 'failed';
  const start = Date.now();
  let inHost = 0;
  const deadline = () => start + exec.timeoutMs + ((exec.waitedMs?.() ?? 0) - waitedBefore);
  let timedOut = false;
  let watchdog: NodeJS.Timeout | undefined;
  const watch = (ms: number) => {
    watchdog = setTimeout(() => {
      const late = Date.now() - (deadline() + WATCHDOG_GRACE_MS);
      if (inHost > 0 || late < 0) return watch(inHost > 0 ? 250 : -late);
      timedOut = true;
      if (!isolate.isDisposed) isolate.dispose();
    }, ms);
  };
  watch(exec.timeoutMs + WATCHDOG_GRACE_MS);
  const bridge = new ivm.Reference(async (json: unknown) => {
    if (typeof json !== 'string') return '{}';
    if (Date.now() > deadline()) {
      timedOut = true;
      return '{"halt":true}';
    }
    inHost++;
    try {
      return await exec.onRequest(json);
    } finally {
      inHost--;
    }
  });
  let context: ivm.Context | undefined;
  let lifecycle: ivm.Reference<Lifecycle> | undefined;
  const environmentFailures: { name: string; message: string }[] = [];
  const remaining = () => Math.max(1, deadline() - Date.now());
  const finish = (result: ExecutionResult, discard?: DiscardReason): ExecutionResult => {
    if (discard !== undefined) verdict = discard;
    return environmentFailures.length > 0 ? { ...result, environmentFailures } : result;
  };
  try {
    const runtime = lease.runtimeScript(source, () => compileRuntime(isolate, source, snapshot));
    // A kept isolate made this context (with the runtime's script evaluated in it) while it waited; else it is made now.
    const prepared = await lease.takePrepared();
    context = prepared?.context ?? isolate.createContextSync();
    const start = prepared?.start ?? (runtime.runSync(context, { timeout: remaining(), reference: true }) as ivm.Reference<unknown>);
    try {
      // The helpers, between the runtime's script and its start, where the runtime evaluated them
      // before: a script of the host's, not code the runtime evaluates (for an eval V8 works out where
      // in the runtime's script the call came from, about half a millisecond a context). Compiled for
      // this context alone (the comment keeps V8 from handing back a cached compilation): the functions
      // of a script shared between contexts carry the JIT state of earlier runs, which moves where a
      // deep recursion through them overflows the stack. Synchronous: it only defines functions.
      if (exec.helpers !== '') await runScript(isolate, context, `${exec.helpers}\n// ${++helperScripts}`, HELPERS_FILENAME, remaining(), async () => undefined, 'sync');
    } catch (error) {
      start.release();
      throw error;
    }
    // The runtime hands back its lifecycle object as a Reference: the snippet finds it on no global.
    lifecycle = callStart(start, { bridge, config: configJson(exec.config), counters: counters.transferable(), memoryLimitMb: exec.memoryLimitMb }, remaining());
    const call = lifecycleCaller(lifecycle);
    const timers = timersOf(lifecycle, call, exec.maxTimerTicks);
    for (const env of exec.environments) {
      const failure = inSnapshot.has(env.name) ? await setupEnvironment(call, env.name, remaining()) : await loadEnvironment(lease, context, call, env, remaining());
      if (failure !== undefined) environmentFailures.push({ name: env.name, message: failure });
    }
    // Each script evaluates to what the runtime takes from it (the prelude's failures, the values to
    // adopt, the snippet as an arrow taking the hooks), so none of them reaches the runtime by a global.
    // The prelude evaluates to its failures, or to undefined when there are none (most runs): then no hop hands them over.
    if (exec.prelude) await runScript(isolate, context, exec.prelude, 'snipexec:prelude', remaining(), async (v) => (v.typeof === 'undefined' ? undefined : call('preludeFailures', [v.derefInto()], remaining())));
    if (exec.preludeOnly) {
      const raw = reportNow(lifecycle);
      if (typeof raw !== 'string' || raw.length > MAX_REPORT_BYTES) return finish({ status: 'internal-error', report: undefined, reason: 'runtime report too large' });
      const report = withCounters(JSON.parse(raw) as RuntimeReport, counters);
      verdict = reuseVerdict(report);
      return finish({ status: 'completed', report });
    }
    // Synchronous: watchLoops runs the runtime's code only.
    if (exec.watchLoops !== undefined && exec.watchLoops.length > 0) lifecycle.applySync(undefined, ['watchLoops', new ivm.ExternalCopy(exec.watchLoops).copyInto()] as never, { timeout: remaining() });
    if (exec.adopt) await runScript(isolate, context, exec.adopt, 'snipexec:adopt', remaining(), (v) => call('adopt', [v.derefInto()], remaining()));
    // The snippet's script only makes the arrow that enter calls: it is evaluated synchronously (no hop).
    await runScript(isolate, context, exec.script, SNIPPET_SCRIPT, remaining(), (v) => call('enter', [v.derefInto()], remaining()), 'sync');
    await awaitBackgroundWork(timers, remaining, await runTimers(timers, remaining));
    // The environments' drivers (fire the listeners, call the handlers), then what they queued.
    // (Only environments add drivers: without one, there is nothing to ask.)
    if (exec.environments.length > 0 && (await call('afterSnippet', [], remaining())) === true) await runTimers(timers, remaining);
    if (exec.config.drive && exec.config.driveTargets.length > 0) {
      // The functions nothing called are called now, after everything else settled; then their
      // timers. Calls make functions (inner ones, callbacks), which the next pass reaches.
      for (let pass = 0; pass < MAX_DRIVE_PASSES; pass++) {
        if (((await call('drive', [], remaining())) as number) === 0) break;
        await runTimers(timers, remaining);
      }
    }
    const raw = reportNow(lifecycle);
    // The code caches learn what this run compiled (ScriptCodeCache.refresh): the runtime's, and those of the environments it loaded at run time.
    refreshRuntimeCache(isolate, source, snapshot);
    for (const env of exec.environments) {
      if (inSnapshot.has(env.name) || environmentFailures.some((f) => f.name === env.name)) continue;
      codeCacheOf(snapshot, environmentFilename(env.name)).refresh(isolate, environmentFactorySource(env));
    }
    if (typeof raw !== 'string' || raw.length > MAX_REPORT_BYTES) return finish({ status: 'internal-error', report: undefined, reason: 'runtime report too large' });
    const report = withCounters(JSON.parse(raw) as RuntimeReport, counters);
    const result = statusOf(report);
    verdict = reuseVerdict(report);
    return finish(result);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const { report, complete } = await salvageReport(isolate, lifecycle, counters);
    // A run that did not end as a run should (a limit, an error of isolated-vm's, exit()) leaves the isolate to no other run.
    if (/memory limit/i.test(message)) return finish({ status: 'memory-limit', report, reason: message }, 'memory-limit');
    // The runtime halted the run (the deadline, a stalled loop): the HALT it threw may surface as a rejection nobody handled (thrown in an async function), which is no error of the snippet's.
    if (complete && report.halted) return finish(statusOf(report), 'timeout');
    if (timedOut || /timed out/i.test(message)) return finish({ status: 'timeout', report, reason: message }, 'timeout');
    if (isolate.isDisposed) return finish({ status: 'memory-limit', report, reason: message }, 'memory-limit');
    // exit() ended the run: what it left behind (a rejection it caused) is no error.
    if (complete && report.exit !== undefined) return finish({ status: 'completed', report });
    // isolated-vm surfaces a rejection nobody handled as an error of the call that left it behind
    // (a SyntaxError too: JSON.parse's, in the snippet's code or an environment's); a script of
    // the run that did not compile is the host's fault.
    if (complete && !(error instanceof ScriptNotCompiled)) {
      // The isolate may host another run: isolated-vm forgets the rejections after each call (its
      // list is emptied as it raises the first), it drained the microtasks, and what is left is
      // in the released context, as after any run (reuseVerdict).
      verdict = reuseVerdict(report);
      return finish({ status: 'stopped', report: { ...report, errors: [...report.errors, { type: 'UnhandledRejection', message, sid: report.lastSite, attribution: 'snippet' }] } });
    }
    return finish({ status: 'internal-error', report, reason: message }, 'internal-error');
  } finally {
    clearTimeout(watchdog);
    bridge.release();
    lifecycle?.release();
    context?.release();
    returnIsolate(lease, timedOut ? 'timeout' : verdict);
  }
}

/**
 * Whether a run that ended by itself left anything in its isolate that a later context could
 * meet: what the runtime noted (RuntimeReport.tainted). undefined: the isolate may host another run.
 * Work still waiting in the released context is no such thing: its timers are the runtime's own
 * (only the host's `tick` runs them), a promise nothing settles runs nothing, the bridge is
 * synchronous (no host answer arrives after the run), isolated-vm drains the microtasks after
 * every call, and what V8 could run later on its own (a FinalizationRegistry cleanup, an
 * asynchronous WebAssembly compile, Atomics.waitAsync) is noted as tainted.
 */
function reuseVerdict(report: RuntimeReport): DiscardReason | undefined {
  if (report.halted) return 'timeout';
  if (report.tainted !== undefined) return 'tainted';
  return undefined;
}

/** How a finished run's report reads as a status. */
function statusOf(report: RuntimeReport): ExecutionResult {
  if (report.halted) return { status: 'timeout', report, reason: report.stalledLoop === undefined ? 'Script execution timed out.' : `a loop kept going: ${STALL_TURNS.toLocaleString('en-US')} turns in one entry of a loop that calls a learnt function` };
  // An environment's exit() ends the run as completed, as process.exit does.
  if (report.exit !== undefined) return { status: 'completed', report };
  if (report.errors.length > 0) return { status: 'stopped', report };
  // Nothing is left to run, yet the top level still waits: on a promise that can never settle.
  if (!report.done) return { status: 'pending', report, reason: 'the top level is still waiting on a promise that never settled' };
  return { status: 'completed', report };
}

type LifecycleCall = (method: LifecycleMethod, args: unknown[], timeout: number) => Promise<unknown>;

/**
 * The runtime's report, by a synchronous call (no hop to the isolate's thread): `report` runs the
 * runtime's own code only (toJson reads own data properties), so no bridge request, which a
 * synchronous call could not answer, can come from it, and the earlier call left no microtask.
 */
function reportNow(lifecycle: ivm.Reference<Lifecycle>): unknown {
  return lifecycle.applySync(undefined, ['report'] as never, { timeout: 2_000, result: { copy: true } });
}

/** The run's timers: `due` by a synchronous call, which runs the runtime's code only (no bridge request can come from it). */
function timersOf(lifecycle: ivm.Reference<Lifecycle>, call: LifecycleCall, maxTicks: number): Timers {
  return { call, due: (timeout) => lifecycle.applySync(undefined, ['due'] as never, { timeout, result: { copy: true } }) as TickOutcome, maxTicks };
}

/** Calls the lifecycle's methods through its dispatch function: one hop per call, the method's name first. */
function lifecycleCaller(lifecycle: ivm.Reference<Lifecycle>): LifecycleCall {
  return async (method, args, timeout) => lifecycle.apply(undefined, [method, ...args] as never, { timeout, result: { copy: true } });
}

/**
 * Evaluates an environment's bundle as `function (module, exports) { … }` in a script named
 * `snipexec:env:<name>` (its stack frames are the environment's), and has the runtime run it and
 * its setup(host). Returns why it failed to load, if it did.
 */
async function loadEnvironment(lease: PooledIsolate, context: ivm.Context, call: LifecycleCall, env: GuestBundle, timeout: number): Promise<string | undefined> {
  let factory: ivm.Reference<unknown>;
  try {
    const filename = environmentFilename(env.name);
    const source = environmentFactorySource(env);
    // Compiled once per isolate (the isolate keeps the script), from the snapshot's code cache.
    const script = lease.script(filename, env.code, () => codeCacheOf(lease.snapshot, filename).compile(lease.isolate, source));
    factory = (await script.run(context, { timeout, reference: true })) as ivm.Reference<unknown>;
  } catch (error) {
    if (/memory limit|timed out/i.test(error instanceof Error ? error.message : '')) throw error;
    return error instanceof Error ? error.message : String(error);
  }
  try {
    const failure = await call('loadEnvironment', [env.name, factory.derefInto()], timeout);
    return typeof failure === 'string' && failure !== '' ? failure : undefined;
  } finally {
    factory.release();
  }
}

/** An environment's bundle as a script evaluating to its factory `(module, exports)`, the bundle from line 2 on. */
function environmentFactorySource(env: GuestBundle): string {
  return `(function (module, exports) {\n${env.code}\n})`;
}

/** Has the runtime call setup(host) of an environment whose module the startup snapshot evaluated. Returns why it failed to load, if it did. */
async function setupEnvironment(call: LifecycleCall, name: string, timeout: number): Promise<string | undefined> {
  const failure = await call('setupEnvironment', [name], timeout);
  return typeof failure === 'string' && failure !== '' ? failure : undefined;
}

/** How long the host waits, at most, for work V8 finishes off the isolate's thread that the top level awaits. */
const BACKGROUND_WAIT_MS = 5_000;

/**
 * A top level that awaits an asynchronous WebAssembly compile (or Atomics.waitAsync) with no
 * timer left would end the run as pending, or let drive start, while V8 finishes the work on a
 * background thread: the host waits for it (each hop into the isolate runs what it posted, so
 * these ticks hop whatever `due` says), then runs the timers it queued. Only runs that used those
 * APIs wait; no other run's timing changes. `last` is how the timers before it ended.
 */
async function awaitBackgroundWork(timers: Timers, remaining: () => number, last: TickOutcome): Promise<void> {
  const until = Date.now() + BACKGROUND_WAIT_MS;
  // Ticks stopped at their cap (TICK_RAN) leave it to `due` whether the top level waits.
  const waits = (outcome: TickOutcome) => outcome === TICK_BACKGROUND || (outcome === TICK_RAN && timers.due(remaining()) === TICK_BACKGROUND);
  let outcome = last;
  while (Date.now() < until && remaining() > 1 && waits(outcome)) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    outcome = await runTimers(timers, remaining, 'hop');
  }
}

/** How the host runs the snippet's timers: a tick is a hop into the isolate; `due` is a synchronous look. */
interface Timers {
  readonly call: LifecycleCall;
  readonly due: (timeout: number) => TickOutcome;
  readonly maxTicks: number;
}

/**
 * Runs due timers until none is left or maxTicks ran: the last outcome (TICK_RAN when the cap
 * stopped them). Before each tick it looks whether a timer is due (`look`), so a run that left
 * none costs no hop; a tick it would have made instead would have run nothing and answered the same.
 */
async function runTimers(timers: Timers, remaining: () => number, first: 'look' | 'hop' = 'look'): Promise<TickOutcome> {
  let outcome: TickOutcome = TICK_RAN;
  for (let tick = 0; tick < timers.maxTicks; tick++) {
    if (first === 'look' || tick > 0) {
      const due = timers.due(remaining());
      if (due !== TICK_RAN) return due;
    }
    outcome = (await timers.call('tick', [], remaining())) as TickOutcome;
    if (outcome !== TICK_RAN) break;
  }
  return outcome;
}

/** A script of the run (prelude, snippet) that V8 could not compile: the host's fault, never an error the code raised. */
class ScriptNotCompiled extends Error {
  readonly code = 'SCRIPT_NOT_COMPILED';
}

/** Runs a script and hands its completion value (a Reference into the isolate, released after) to `take`. */
async function runScript(isolate: ivm.Isolate, context: ivm.Context, code: string, filename: string, timeout: number, take: (value: ivm.Reference<unknown>) => Promise<unknown>, evaluation: 'hop' | 'sync' = 'hop'): Promise<void> {
  let script: ivm.Script;
  try {
    // Synchronous: compiling runs no code, and a hop to the isolate's thread costs more.
    script = isolate.compileScriptSync(code, { filename });
  } catch (error) {
    if (/memory limit|timed out/i.test(error instanceof Error ? error.message : '')) throw error;
    throw new ScriptNotCompiled(`${filename} did not compile: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  let value: ivm.Reference<unknown> | undefined;
  try {
    // 'sync' only for a script whose evaluation runs no code (the snippet's arrow): a bridge request
    // from a synchronous call would throw, and a hop costs more than such an evaluation.
    value = (evaluation === 'sync' ? script.runSync(context, { timeout, reference: true }) : await script.run(context, { timeout, reference: true })) as ivm.Reference<unknown>;
    await take(value);
  } finally {
    value?.release();
    script.release();
  }
}

/**
 * What ran before a run was ended: the runtime's report when the isolate is still there (a
 * timeout ends the call, not the isolate); else only the counters, from shared memory.
 */
async function salvageReport(isolate: ivm.Isolate, lifecycle: ivm.Reference<Lifecycle> | undefined, counters: SharedCounters): Promise<{ report: RuntimeReport; complete: boolean }> {
  if (lifecycle && !isolate.isDisposed) {
    try {
      const raw = (await lifecycleCaller(lifecycle)('report', [], 1_000)) as string;
      if (typeof raw === 'string' && raw.length <= MAX_REPORT_BYTES) return { report: withCounters(JSON.parse(raw) as RuntimeReport, counters), complete: true };
    } catch {
      // the isolate is gone or its report cannot be made: the counters are still there
    }
  }
  return { report: withCounters({ stdout: '', stdoutDropped: 0, errors: [], done: false, pendingTimers: 0, lastSite: -1 }, counters), complete: false };
}

/** The report with the counters read from shared memory, where the runtime counts. */
function withCounters(report: Omit<RuntimeReport, 'statements' | 'branches'>, counters: SharedCounters): RuntimeReport {
  return { ...report, statements: counters.statementCounts(), branches: counters.branchCounts() };
}
