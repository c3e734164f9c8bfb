/**
 * The guest runtime: runs INSIDE the isolate, imports nothing of the host (only types and constants
 * from src/protocol), and sees nothing of it. Bundled into one script (src/sandbox/runtimeBundle.ts)
 * that sets up what every run shares (`boot`) and evaluates to `start`, which the host calls once per
 * context, before any environment, prelude or snippet code runs. Its only way out is the bridge;
 * the counters are in memory the host shares.
 *
 * Integrity: whatever runs while or after the snippet runs (hooks, console, timers, probes, the
 * report) calls only built-ins captured when this script was evaluated (primordials.ts), and keeps
 * its data in lists and records without a prototype (ownData.ts), so nothing the snippet puts on
 * Array.prototype, Object.prototype, String.prototype or Promise.prototype takes part; none of what
 * it holds is stored on any global, and the functions it hands the snippet show no source (native.ts).
 */
import type { BridgeReference, LifecycleDispatch, LifecycleMethod, RuntimeConfig, RuntimeGlobal, StartRuntime } from '../../protocol/runtime.ts';
import { setBridge } from './bridge.ts';
import { addTimer, clearTimer, createFakeDate, initClock, random } from './clock.ts';
import { createConsole, hideConsoleSources, takeNodeUtil } from './console.ts';
import { initCoverage } from './coverage.ts';
import { lifecycle, takeEnvironmentModules } from './lifecycle.ts';
import { maskHookName } from './maskHookName.ts';
import { installMemoryCap } from './memoryCap.ts';
import { setMemoryBudget } from './memoryBudget.ts';
import { watchLastingEffects } from './lastingEffects.ts';
import { native } from './native.ts';
import { detached, flatList, rec } from './ownData.ts';
import { apply, defineProperty, ErrorCtor, G, isArray, objHasOwn, ownKeys, parse, type Dyn } from './primordials.ts';
import { setConfig } from './run.ts';
import { ownInstance } from './drive.ts';
import { OWN_INSTANCE } from '../../protocol/ownInstance.ts';
import { initValueHooks } from './valueHooks.ts';
import { installStackTrace } from './stackTrace.ts';

/** queueMicrotask: fn runs as a microtask; what it throws is an unhandled rejection, as in Node. */
async function microtask(fn: () => void): Promise<void> {
  await undefined;
  fn();
}

let started = false;

/** The host's one way into the lifecycle: a method of its own (frozen) object, by name. */
const dispatch = ((method: LifecycleMethod, ...args: unknown[]) => {
  if (!apply(objHasOwn, lifecycle, [method])) throw new ErrorCtor(`snipexec: no lifecycle method ${String(method)}`);
  return apply(lifecycle[method] as (...a: unknown[]) => unknown, lifecycle, args);
}) as LifecycleDispatch;

/**
 * What every context's runtime sets up before its run, the same for every run: the globals the
 * snippet gets (console, timers, Date, Math.random), the memory cap and the marks of lasting
 * effects. Done when the runtime's script is evaluated, before anything else runs in the context:
 * a warm isolate evaluates it while the context is prepared ahead of its run, on the isolate's
 * thread (src/sandbox/isolatePool.ts), so `start` is left only what the run's config decides.
 */
function boot(): void {
  takeNodeUtil();
  takeEnvironmentModules();
  const FakeDate = createFakeDate();
  const consoleObject = createConsole();
  // The functions the snippet is handed are arrows or proxies of them: none has a `prototype` whose
  // constructor is the runtime's own function.
  const globals: Record<RuntimeGlobal, unknown> = rec({
    console: consoleObject,
    setTimeout: native((fn: unknown, ms: unknown, ...args: unknown[]) => addTimer(fn, ms, args, false), 'setTimeout'),
    setInterval: native((fn: unknown, ms: unknown, ...args: unknown[]) => addTimer(fn, ms, args, true), 'setInterval'),
    setImmediate: native((fn: unknown, ...args: unknown[]) => addTimer(fn, 0, args, false), 'setImmediate'),
    clearTimeout: native((id: unknown) => clearTimer(id), 'clearTimeout'),
    clearInterval: native((id: unknown) => clearTimer(id), 'clearInterval'),
    clearImmediate: native((id: unknown) => clearTimer(id), 'clearImmediate'),
    queueMicrotask: native((fn: () => void) => {
      void microtask(fn);
    }, 'queueMicrotask'),
    Date: FakeDate,
  });
  hideConsoleSources(consoleObject);
  const names = ownKeys(globals);
  for (let i = 0; i < names.length; i++) defineProperty(G, names[i], rec({ value: globals[names[i] as RuntimeGlobal], writable: true, configurable: true, enumerable: false }));
  // Own-class edge values name the class by a drive target: the module's scope is not the definitions'.
  defineProperty(G, OWN_INSTANCE, rec({ value: native((name: unknown) => ownInstance(name), OWN_INSTANCE), writable: true, configurable: true, enumerable: false }));
  Math.random = native(() => random(), 'random');
  // Its budget is the run's memory limit, which `start` sets.
  installMemoryCap();
  // Last: it wraps the memory cap's constructors, and marks nothing the runtime's own setup did.
  watchLastingEffects();
}

boot();

export const start: StartRuntime = (bridge: BridgeReference, configJson: string, counters: SharedArrayBuffer, memoryLimitMb: number): LifecycleDispatch => {
  if (started) throw new ErrorCtor('snipexec: the runtime has started already');
  started = true;
  setBridge(bridge);
  const raw: Dyn = parse(configJson);
  const positions: unknown = raw.positions;
  // The position table is thousands of numbers: detached, interpreted in a fresh context, would step through each.
  if (isArray(positions)) raw.positions = null;
  const config = detached(raw) as RuntimeConfig;
  if (isArray(positions)) (config as Dyn).positions = flatList(positions as number[]);
  setConfig(config);
  initCoverage(counters, config.statements, config.branches);
  initClock(config.startTime, config.seed);
  initValueHooks();
  installStackTrace(config.positions);
  maskHookName(config.hook, config.shownHook);
  setMemoryBudget(memoryLimitMb);
  return dispatch;
};
