/**
 * The runtime's timers, looked up when used (the runtime defines setTimeout before the snippet
 * runs). Where none exist (the bare isolate of the unit-test harness), a task is a microtask.
 */

type TimerGlobals = { setTimeout?: (fn: () => void, ms: number) => unknown; clearTimeout?: (id: unknown) => void };

/** Runs `fn` after `ms` of the runtime's virtual clock; returns the timer id. */
export function schedule(global: object, fn: () => void, ms: number): unknown {
  const G = global as TimerGlobals;
  if (typeof G.setTimeout === 'function') return G.setTimeout(fn, ms);
  void Promise.resolve().then(fn);
  return 0;
}

/** Cancels a timer `schedule` started. */
export function unschedule(global: object, id: unknown): void {
  const G = global as TimerGlobals;
  if (typeof G.clearTimeout === 'function') G.clearTimeout(id);
}
