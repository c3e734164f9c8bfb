/**
 * process.nextTick's queue, run as Node runs it: drained when the current macrotask ends (the
 * snippet's top level, a timer's callback, an environment's driver, a driven entry point), before
 * the promise jobs it queued; a tick queued from a promise job runs after the jobs already queued.
 * A tick that throws is the snippet's uncaught error, as in Node.
 */
import { uncaught } from './errorAttribution.ts';
import { list, push, rec } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, PromiseCtor, promiseResolve, promiseThen } from './primordials.ts';
import { run } from './run.ts';

const queue = list<{ readonly fn: Dyn; readonly args: readonly unknown[] }>();
let next = 0;
let inMacrotask = false;
let scheduled = false;

/** Queues fn(...args) as process.nextTick does. */
export function nextTick(fn: unknown, args: readonly unknown[]): void {
  push(queue, rec({ fn, args }));
  if (inMacrotask || scheduled) return;
  // Queued from a promise job: a microtask drains it after the jobs queued before it.
  scheduled = true;
  apply(promiseThen, apply(promiseResolve, PromiseCtor, [undefined]), [drainTicks]);
}

/** Runs a macrotask's body, then the ticks it queued (unless it ended the run). */
export function macrotask<T>(body: () => T): T {
  const outer = inMacrotask;
  inMacrotask = true;
  try {
    return body();
  } finally {
    inMacrotask = outer;
    if (!outer && !run.stopped) drainTicks();
  }
}

function drainTicks(): void {
  scheduled = false;
  while (next < queue.length && !run.stopped) {
    const tick = queue[next];
    next++;
    try {
      apply(tick.fn, undefined, tick.args);
    } catch (e) {
      uncaught(e);
    }
  }
  if (next >= queue.length) {
    queue.length = 0;
    next = 0;
  }
}
