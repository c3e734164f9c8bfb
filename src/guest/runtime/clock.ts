/**
 * The virtual clock: timers run when the host ticks, in due order, on a clock that jumps to each
 * one (no real time passes); Date reads that clock, which a long stretch of reads moves too
 * (CLOCK_READS_BEFORE_MOVING: a busy wait ends); Math.random is a seeded generator.
 */
import { CLOCK_READS_BEFORE_MOVING } from '../../protocol/runtime.ts';
import { native } from './native.ts';
import { list, push, rec, removeAt } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { run } from './run.ts';
import { apply, construct, dateToString, defineProperty, MathImul, MathMax, RealDate, StringCtor, strSlice, TypeErrorCtor } from './primordials.ts';

export interface Timer {
  readonly id: number;
  at: number;
  readonly seq: number;
  readonly fn: Dyn;
  readonly args: readonly unknown[];
  /** The repeat period of an interval, 0 for a one-shot timer. */
  readonly interval: number;
  /** Where it was set: the hook site that ran last when setTimeout/setInterval was called (staleTimers.ts). */
  readonly place: number;
}

let now = 0;
/** Reads of the clock since a timer last fired (CLOCK_READS_BEFORE_MOVING). */
let reads = 0;
let timerSeq = 0;
export const timers = list<Timer>();
let seed = 0;

export function initClock(startTime: number, randomSeed: number): void {
  now = startTime;
  seed = randomSeed >>> 0;
}

/**
 * Node's ERR_INVALID_ARG_TYPE for a timer callback that is not a function. A string is refused as
 * Node refuses it, not evaluated as a browser would: code built at run time would run uninstrumented.
 */
function invalidCallback(fn: unknown): TypeError {
  let received: string;
  if (fn === null || fn === undefined) received = StringCtor(fn);
  else if (typeof fn === 'object') received = 'an instance of Object';
  else {
    let shown = typeof fn === 'string' ? `'${fn}'` : typeof fn === 'symbol' || typeof fn === 'bigint' ? StringCtor(fn) + (typeof fn === 'bigint' ? 'n' : '') : StringCtor(fn);
    if (shown.length > 28) shown = `${apply(strSlice, shown, [0, 25]) as string}...`;
    received = `type ${typeof fn} (${shown})`;
  }
  const e = new TypeErrorCtor(`The "callback" argument must be of type function. Received ${received}`);
  defineProperty(e, 'code', rec({ value: 'ERR_INVALID_ARG_TYPE', writable: true, configurable: true, enumerable: true }));
  return e;
}

export function addTimer(fn: unknown, ms: unknown, args: readonly unknown[], interval: boolean): number {
  if (typeof fn !== 'function') throw invalidCallback(fn);
  const id = ++timerSeq;
  let delay = 0;
  try {
    delay = MathMax(0, +(ms as number) || 0);
  } catch {} // a BigInt or symbol is a delay of 0, as in Node
  push(timers, rec({ id, at: now + delay, seq: id, fn, args, interval: interval ? MathMax(1, delay) : 0, place: run.lastSite }));
  return id;
}
export function clearTimer(id: unknown): void {
  for (let i = 0; i < timers.length; i++) {
    if (timers[i].id === id) {
      removeAt(timers, i);
      return;
    }
  }
}
/** The timer due first (the earlier added among equals), -1 when none is left. */
function nextTimer(): number {
  let best = -1;
  for (let i = 0; i < timers.length; i++) {
    const t = timers[i];
    if (best < 0 || t.at < timers[best].at || (t.at === timers[best].at && t.seq < timers[best].seq)) best = i;
  }
  return best;
}
/** Takes the timer due first off the queue (an interval stays, due again a period later), and moves the clock to it. */
export function takeNextTimer(): Timer | undefined {
  const i = nextTimer();
  if (i < 0) return undefined;
  const timer = timers[i];
  if (timer.interval) timer.at += timer.interval;
  else removeAt(timers, i);
  if (timer.at > now) now = MathMax(now, timer.at - (timer.interval || 0));
  reads = 0;
  return timer;
}

/** The clock, read: past CLOCK_READS_BEFORE_MOVING reads since a timer fired, each read moves it 1 ms (a busy wait ends). */
function read(): number {
  if (++reads > CLOCK_READS_BEFORE_MOVING) now++;
  return now;
}

/** Date on the virtual clock; the global Date is it behind native() (so `new.target` may be either). */
function DateImpl(this: unknown, ...args: unknown[]): unknown {
  if (!new.target) return apply(dateToString, new RealDate(read()), []);
  return args.length === 0 ? new RealDate(read()) : construct(RealDate, args, new.target === FakeDate || new.target === DateImpl ? RealDate : new.target);
}
let FakeDate: Dyn;

/** Makes the virtual clock's Date: its prototype and statics, and the prototype's constructor. */
export function createFakeDate(): unknown {
  const impl = DateImpl as Dyn;
  impl.prototype = RealDate.prototype;
  defineProperty(impl, 'prototype', rec({ writable: false }));
  defineProperty(impl, 'length', rec({ value: 7 }));
  impl.now = native(() => read(), 'now');
  impl.parse = RealDate.parse;
  impl.UTC = RealDate.UTC;
  FakeDate = native(DateImpl, 'Date');
  defineProperty(RealDate.prototype, 'constructor', rec({ value: FakeDate, writable: true, configurable: true }));
  return FakeDate;
}

/** Math.random: mulberry32 on the run's seed, so a run is the same every time. */
export function random(): number {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let x = seed;
  x = MathImul(x ^ (x >>> 15), x | 1);
  x ^= x + MathImul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}
