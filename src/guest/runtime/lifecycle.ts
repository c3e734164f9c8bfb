/**
 * The lifecycle object the host drives the run with (RuntimeLifecycle, src/protocol/runtime.ts):
 * environments, the prelude's values, the snippet, timers, drivers, the functions nothing called,
 * and the report. The host gets it as a Reference; no global names it.
 */
import { ENVIRONMENT_MODULES_GLOBAL, TICK_BACKGROUND, TICK_IDLE, TICK_RAN, type GuestReport, type RuntimeLifecycle, type TickOutcome } from '../../protocol/runtime.ts';
import { clearTimer, takeNextTimer, timers } from './clock.ts';
import { output, outputBy, outputParts } from './console.ts';
import { watchedLoops } from './coverage.ts';
import { register } from './elements.ts';
import { drivePass, drives } from './drive.ts';
import { drivers, environmentHost, moduleFailures } from './environmentHost.ts';
import { caught, uncaught } from './errorAttribution.ts';
import { hooks } from './hooks.ts';
import { injectedGlobals } from './injection.ts';
import { isPromise, settle } from './native.ts';
import { cut, list, push, rec, str } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, G, isArray, ObjectCreate, ObjectFreeze, objHasOwn, parse, strSlice } from './primordials.ts';
import { traces } from './probes.ts';
import { startedBackgroundWork, taints } from './lastingEffects.ts';
import { EXIT, run } from './run.ts';
import { judgeLastFiring, stale, staleTimer } from './staleTimers.ts';
import { macrotask } from './ticks.ts';
import { toJson } from './toJson.ts';
import { adoptModule, adoptReceiver, answers, callees, iterables } from './valueHooks.ts';

/** What tick answers when it runs no timer (RuntimeLifecycle.due): the top level waits on work V8 finishes off the isolate's thread, or nothing. */
function idleOutcome(): TickOutcome {
  return !run.stopped && !run.done && timers.length === 0 && startedBackgroundWork() ? TICK_BACKGROUND : TICK_IDLE;
}

function hasAny(record: Record<string, unknown>): boolean {
  for (const _ in record) return true;
  return false;
}

/** Definitions of the prelude that threw, with their errors (at most 100). */
const preludeFailures = list<{ id: string; message: string }>();

/** The module.exports of the environments the startup snapshot evaluated, by name; each is set up once. */
let snapshotModules: Record<string, unknown> = ObjectCreate(null);

/** Takes the environments' modules off the global object, where the startup snapshot left them (if it did). */
export function takeEnvironmentModules(): void {
  const modules = G[ENVIRONMENT_MODULES_GLOBAL];
  delete G[ENVIRONMENT_MODULES_GLOBAL];
  if (typeof modules === 'object' && modules !== null) snapshotModules = modules;
}

/** Calls setup(host) of the module.exports `exportsOf` gives (evaluating the module, for one not in the snapshot): '' when it loaded, else why not. */
function setUp(name: string, exportsOf: () => Dyn): string {
  try {
    const exports = exportsOf();
    const setup = exports && exports.setup;
    if (typeof setup !== 'function') return `environment ${str(name)} exports no setup function`;
    apply(setup, exports, [environmentHost]);
    return '';
  } catch (e) {
    if (e === EXIT) {
      run.unwind = undefined;
      run.stopped = false;
      return `environment ${str(name)} called exit() while loading`;
    }
    let message;
    try {
      message = str(e && (e as Dyn).message !== undefined ? (e as Dyn).message : e);
    } catch {
      message = '[unprintable error]';
    }
    return cut(message, 500) || 'failed to load';
  }
}

export const lifecycle: RuntimeLifecycle = ObjectFreeze({
  loadEnvironment(name: string, factory: unknown): string {
    return setUp(name, () => {
      const module: Dyn = { exports: {} };
      apply(factory as Dyn, module.exports, [module, module.exports]);
      return module.exports;
    });
  },
  setupEnvironment(name: string): string {
    if (!apply(objHasOwn, snapshotModules, [name])) return `environment ${str(name)} is not in the startup snapshot`;
    const exports = snapshotModules[name];
    delete snapshotModules[name];
    return setUp(name, () => exports as Dyn);
  },
  watchLoops(ids: unknown): void {
    if (!isArray(ids)) return;
    for (let i = 0; i < ids.length; i++) if (typeof ids[i] === 'number') watchedLoops[ids[i]] = true;
  },
  afterSnippet(): boolean {
    let ran = false;
    for (let i = 0; i < drivers.length && !run.stopped; i++) {
      ran = true;
      outputBy('environment', drivers[i].name);
      try {
        const r: Dyn = macrotask(() => apply(drivers[i].drive, undefined, []));
        if (isPromise(r)) settle(r, undefined, (e) => uncaught(e));
        else if (r && typeof r.then === 'function') r.then(undefined, (e: unknown) => uncaught(e));
      } catch (e) {
        uncaught(e);
      }
    }
    return ran;
  },
  enter(script: unknown): void {
    if (typeof script === 'function') apply(script, undefined, [hooks]);
  },
  adopt(pairs: unknown): void {
    if (!isArray(pairs)) return;
    for (let i = 0; i < pairs.length; i++) {
      register(pairs[i][1], pairs[i][0]);
      const id = pairs[i][0];
      if (id === 'this') {
        adoptReceiver(pairs[i][1]);
        continue;
      }
      injectedGlobals[id] = true;
      if (apply(strSlice, id, [0, 8]) === 'require(') {
        try {
          adoptModule(parse(apply(strSlice, id, [8, -1])), pairs[i][1]);
        } catch {}
      }
    }
  },
  preludeFailures(pairs: unknown): void {
    if (!isArray(pairs)) return;
    for (let i = 0; i < pairs.length; i++) {
      const id = pairs[i][0];
      const e = pairs[i][1];
      if (preludeFailures.length < 100) push(preludeFailures, rec({ id: str(id), message: cut(str(e && e.message !== undefined ? e.message : e), 500) }));
    }
  },
  tick(): TickOutcome {
    if (run.stopped) return TICK_IDLE;
    judgeLastFiring();
    let timer = takeNextTimer();
    // A stale timer is dropped (an interval with it) and the next one taken.
    while (timer !== undefined && staleTimer(timer)) {
      if (timer.interval) clearTimer(timer.id);
      timer = takeNextTimer();
    }
    // No timer left: this call ran nothing, and answers as due would.
    if (timer === undefined) return idleOutcome();
    try {
      macrotask(() => apply(timer.fn, G, timer.args));
    } catch (e) {
      // The run stopped (uncaught sets run.stopped): nothing waits on background work either.
      uncaught(e);
      return TICK_IDLE;
    }
    // A timer ran: the host asks again, after the microtasks it queued, which may add timers.
    return TICK_RAN;
  },
  due(): TickOutcome {
    if (run.stopped) return TICK_IDLE;
    return timers.length > 0 ? TICK_RAN : idleOutcome();
  },
  drive(): number {
    if (run.stopped) return 0;
    outputBy('drive');
    return drivePass();
  },
  report(): string {
    const report: GuestReport = rec({
      halted: run.halted,
      ...(run.stalledLoop !== -1 ? { stalledLoop: run.stalledLoop } : {}),
      stdout: output.stdout,
      stdoutDropped: output.dropped,
      ...(outputParts.length > 0 ? { stdoutParts: outputParts } : {}),
      errors: run.errors,
      caught,
      done: run.done,
      pendingTimers: timers.length,
      ...(stale.stopped > 0 ? { staleTimers: stale.stopped } : {}),
      lastSite: run.lastSite,
      traces,
      preludeFailures,
      ...(moduleFailures.length > 0 ? { moduleFailures } : {}),
      ...(run.unwind === EXIT ? { exit: run.exitCode, exitSites: run.exitSites } : {}),
      ...(drives.length > 0 ? { drives } : {}),
      ...(hasAny(answers) ? { answers } : {}),
      ...(hasAny(callees) ? { callees } : {}),
      ...(hasAny(iterables) ? { iterables } : {}),
      ...(taints().length > 0 ? { tainted: taints() } : {}),
    });
    return toJson(report);
  },
});
