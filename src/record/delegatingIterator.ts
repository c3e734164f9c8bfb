const { apply } = Reflect;

/**
 * An iterator yield* uses in place of a generator object `inner`, seeing each step `inner` gives:
 * it gets the iterator as yield* would (inner[Symbol.iterator]() once, its `next` once), and gives
 * `throw` and `return` as inner has them when yield* asks, so yield* does what it does with inner.
 * `before` runs before each step (the recorder puts the delegating generator back on its stack),
 * `see` after each step that returned.
 */
export function delegating(inner: Iterator<unknown> & object, before: () => void, see: (step: unknown) => void): object {
  const it = apply((inner as unknown as Record<symbol, () => unknown>)[Symbol.iterator] as () => unknown, inner, []) as Record<string, unknown>;
  const next = it.next as (v: unknown) => unknown;
  const pass = (method: unknown) => (typeof method !== 'function' ? method : (v: unknown) => {
    before();
    const step = apply(method, it, [v]);
    see(step);
    return step;
  });
  return {
    [Symbol.iterator]() {
      return this;
    },
    next(v: unknown) {
      before();
      const step = apply(next, it, [v]);
      see(step);
      return step;
    },
    get throw() {
      return pass(it.throw);
    },
    get return() {
      return pass(it.return);
    },
  };
}
