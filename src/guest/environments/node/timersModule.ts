type Timer = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => unknown;

/**
 * `timers` and `timers/promises` over the runtime's virtual timers (captured before the snippet
 * runs, so a snippet that replaces `setTimeout` does not change them).
 */
export function createTimers(G: typeof globalThis): { timers: Record<string, unknown>; promises: Record<string, unknown>; promiseForms: ReadonlyMap<unknown, (...args: never[]) => unknown> } {
  const setTimeout = G.setTimeout as unknown as Timer;
  const setImmediate = (G as unknown as { setImmediate: Timer }).setImmediate;
  const timers = {
    setTimeout,
    setInterval: G.setInterval,
    setImmediate,
    clearTimeout: G.clearTimeout,
    clearInterval: G.clearInterval,
    clearImmediate: (G as unknown as { clearImmediate: unknown }).clearImmediate,
  };
  const wait = (ms?: number, value?: unknown) => new Promise((resolve) => setTimeout(() => resolve(value), ms));
  const promises = {
    setTimeout: wait,
    setImmediate: (value?: unknown) => new Promise((resolve) => setImmediate(() => resolve(value))),
    async *setInterval(ms?: number, value?: unknown) {
      for (;;) yield await wait(ms, value);
    },
    scheduler: { wait: (ms: number) => wait(ms), yield: () => wait(0) },
  };
  // util.promisify(setTimeout) is timers/promises' setTimeout, as Node's custom promise form is
  const promiseForms = new Map<unknown, (...args: never[]) => unknown>([[setTimeout, promises.setTimeout], [setImmediate, promises.setImmediate]]);
  return { timers: { ...timers, promises }, promises, promiseForms };
}
