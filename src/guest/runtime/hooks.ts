/**
 * The hook object the snippet's script is called with (src/protocol/hooks.ts names its methods).
 * It is on no global: the snippet's script evaluates to an arrow the lifecycle calls with it, and
 * the snippet cannot name that arrow's parameter (src/guest/runtime/hookGuard.ts).
 */
import { HOOKS, type HookName } from '../../protocol/hooks.ts';
import * as coverage from './coverageHooks.ts';
import { entered, functions, ownerIsValue, owners } from './driveTargets.ts';
import { caughtBySnippet, thrownAt, uncaught } from './errorAttribution.ts';
import { isPromise, settle } from './native.ts';
import { put } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, G, ObjectFreeze } from './primordials.ts';
import { run } from './run.ts';
import { macrotask } from './ticks.ts';
import * as values from './valueHooks.ts';

/** Runs the snippet's body; its completion (or its promise's) ends the top level. */
function main(fn: Dyn): void {
  try {
    // The top level is the first macrotask: the ticks it queued run before the promise jobs.
    const r: Dyn = macrotask(() => apply(fn, G, []));
    const done = (): void => {
      run.done = true;
    };
    if (isPromise(r)) settle(r, done, (e) => uncaught(e));
    else if (r && typeof r.then === 'function') r.then(done, (e: unknown) => uncaught(e)); // a thenable the snippet returned
    else run.done = true;
  } catch (e) {
    uncaught(e);
  }
}

type HookTable = { readonly [K in HookName]: (...args: never[]) => unknown };

export const hooks = ObjectFreeze({
  [HOOKS.statement]: coverage.statement,
  [HOOKS.test]: coverage.test,
  [HOOKS.returned]: coverage.returned,
  [HOOKS.returnedFromLoops]: coverage.returnedFromLoops,
  [HOOKS.branch]: coverage.branch,
  [HOOKS.logical]: coverage.logical,
  [HOOKS.loopEnter]: coverage.loopEnter,
  [HOOKS.loopBody]: coverage.loopBody,
  [HOOKS.loopExit]: coverage.loopExit,
  [HOOKS.loopTest]: coverage.loopTest,
  [HOOKS.withObject]: coverage.withObject,
  [HOOKS.global]: values.global,
  [HOOKS.globalTypeof]: values.globalTypeof,
  [HOOKS.receiver]: values.receiverOf,
  [HOOKS.member]: values.memberOf,
  [HOOKS.methodCall]: values.methodCall,
  [HOOKS.call]: values.call,
  [HOOKS.construct]: values.constructNew,
  [HOOKS.require]: values.requireModule,
  [HOOKS.destructure]: values.destructure,
  [HOOKS.iterable]: values.iterable,
  [HOOKS.await]: values.awaited,
  [HOOKS.operator]: values.operator,
  [HOOKS.directEval]: values.directEval,
  [HOOKS.main]: main,
  /** Drive targets (src/guest/runtime/drive.ts): registered, entered, and called at the end when never entered. */
  [HOOKS.entryRegister]<T>(k: number, fn: T, owner?: () => unknown): T {
    if (typeof fn === 'function') put(functions, k, fn);
    if (typeof owner === 'function') put(owners, k, owner);
    return fn;
  },
  [HOOKS.methodRegister](k: number, owner: () => unknown) {
    if (typeof owner === 'function') put(owners, k, owner);
  },
  [HOOKS.objectRegister]<T>(obj: T, ...ks: number[]): T {
    for (let i = 0; i < ks.length; i++) {
      put(owners, ks[i]!, obj);
      put(ownerIsValue, ks[i]!, true);
    }
    return obj;
  },
  [HOOKS.entryEnter](k: number) {
    put(entered, k, true);
  },
  [HOOKS.caught]: caughtBySnippet,
  [HOOKS.thrown]: thrownAt,
} satisfies HookTable);
