/**
 * How the runtime hands functions and promises to the snippet without handing over itself: a
 * function behind a trapless proxy shows `[native code]` as its source, and a promise of the
 * runtime's settles through the built-in then, with a species of its own.
 */
import { rec } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, defineProperty, getPrototypeOf, ObjectCreate, ObjectFreeze, PromiseCtor, PromiseProto, promiseThen, ProxyCtor, symSpecies } from './primordials.ts';

const NATIVE: ProxyHandler<Dyn> = ObjectFreeze(ObjectCreate(null));
/**
 * A function of the runtime as the snippet sees it: a proxy without traps, which calls and constructs
 * as the function does, but whose source Function.prototype.toString does not show (`[native code]`).
 */
export function native<F extends (...args: never[]) => unknown>(fn: F, name?: string): F {
  if (name !== undefined) defineProperty(fn, 'name', rec({ value: name, configurable: true }));
  return new ProxyCtor(fn, NATIVE);
}

/** A `constructor` for the runtime's promises whose species is the real Promise. */
const SPECIES: object = ObjectFreeze(rec({ [symSpecies]: PromiseCtor }));

/** Gives a promise of the engine's a species of its own, so then/finally make theirs with the real Promise. */
export function ownSpecies(p: Promise<unknown>): void {
  defineProperty(p, 'constructor', rec({ value: SPECIES, configurable: true }));
}

/**
 * Calls ok or fail once a promise of the runtime's settles, with the built-in then: neither
 * Promise.prototype.then nor a species the snippet gave Promise takes part (the promise gets a
 * `constructor` of its own whose species is the real Promise).
 */
export function settle(p: Promise<unknown>, ok: ((v: unknown) => unknown) | undefined, fail: (e: unknown) => unknown): void {
  ownSpecies(p);
  apply(promiseThen, p, [ok, fail]);
}

/** Whether v is a promise the engine made (an async function's result): its prototype is Promise's own. */
export function isPromise(v: unknown): v is Promise<unknown> {
  try {
    return typeof v === 'object' && v !== null && getPrototypeOf(v) === PromiseProto;
  } catch {
    return false;
  }
}
