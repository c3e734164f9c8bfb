import { CLOCK_READS_BEFORE_MOVING } from '../protocol/runtime.ts';

/** The sandbox's clock settings for one snippet: the seed, the virtual start time, the timer tick cap. */
export interface ClockSettings {
  readonly seed: number;
  readonly startTime: number;
  readonly maxTimerTicks: number;
}

/** The program reads the clock, the random generator or the timers (in the snippet or a definition). */
export function readsClock(source: string): boolean {
  return /\b(?:Date|setTimeout|setInterval|setImmediate)\b|\bMath\s*\.\s*random\b/.test(source);
}

/**
 * The sandbox's virtual clock and seeded `Math.random` (src/guest/runtime/clock.ts), for the emitted
 * program, so that it prints under plain Node what the run printed: `Date` starts at the run's
 * start time and moves when a timer fires, and 1 ms per read past CLOCK_READS_BEFORE_MOVING reads
 * with no timer between; `Math.random` is the same generator with the
 * same seed; timers run in the order of their virtual due time, one per event-loop turn, at most
 * `maxTimerTicks` of them, with no real waiting. `__snipexec_afterTimers(fn)` runs fn once the
 * timers have run out, as the sandbox calls the functions nothing called (callUncalled), then
 * runs the timers again (those fn set, and those the tick cap left), unless fn returned false (the
 * sandbox runs them again only after drivers that ran); functions given in turn run in turn (the
 * environments' drivers, then the functions nothing called). One line, so a re-run of the program
 * leaves no line of it uncovered.
 */
export function clockPreamble(clock: ClockSettings): string {
  const source = [
    '(function () {',
    'const RealDate = Date, realImmediate = setImmediate, timers = [], idle = [];',
    `let now = ${clock.startTime}, seed = ${clock.seed >>> 0}, seq = 0, ticks = 0, draining = false, reads = 0;`,
    `function read() { if (++reads > ${CLOCK_READS_BEFORE_MOVING}) now++; return now; }`,
    'function FakeDate(...args) {',
    '  if (!new.target) return String(new RealDate(read()));',
    '  return args.length === 0 ? new RealDate(read()) : Reflect.construct(RealDate, args, new.target === FakeDate ? RealDate : new.target);',
    '}',
    'FakeDate.prototype = RealDate.prototype; FakeDate.now = read; FakeDate.parse = RealDate.parse; FakeDate.UTC = RealDate.UTC;',
    "Object.defineProperty(RealDate.prototype, 'constructor', { value: FakeDate, writable: true, configurable: true });",
    'function random() {',
    '  seed = (seed + 0x6d2b79f5) >>> 0; let x = seed;',
    '  x = Math.imul(x ^ (x >>> 15), x | 1); x ^= x + Math.imul(x ^ (x >>> 7), x | 61);',
    '  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;',
    '}',
    'function add(fn, ms, args, interval) {',
    '  const id = ++seq, delay = Math.max(0, Number(ms) || 0);',
    '  timers.push({ id, at: now + delay, seq: id, fn, args, interval: interval ? Math.max(1, delay) : 0 });',
    '  if (!draining) { draining = true; realImmediate(tick); }',
    '  return id;',
    '}',
    'function clear(id) { for (let i = 0; i < timers.length; i++) if (timers[i].id === id) { timers.splice(i, 1); return; } }',
    'function idleNext() {',
    '  while (idle.length > 0) {',
    '    const again = idle.shift()() !== false;',
    '    if (draining) return;',
    '    if (again && timers.length > 0) { draining = true; realImmediate(tick); return; }',
    '  }',
    '}',
    'function tick() {',
    `  if (timers.length === 0 || ticks++ >= ${clock.maxTimerTicks}) { draining = false; ticks = 0; idleNext(); return; }`,
    '  let best = 0;',
    '  for (let i = 1; i < timers.length; i++) if (timers[i].at < timers[best].at || (timers[i].at === timers[best].at && timers[i].seq < timers[best].seq)) best = i;',
    '  const timer = timers[best];',
    '  if (timer.interval) timer.at += timer.interval; else timers.splice(best, 1);',
    '  if (timer.at > now) now = Math.max(now, timer.at - (timer.interval || 0));',
    '  reads = 0;',
    '  realImmediate(tick);',
    '  timer.fn.apply(globalThis, timer.args);',
    '}',
    'const globals = {',
    '  Date: FakeDate, setTimeout: (fn, ms, ...args) => add(fn, ms, args, false), setInterval: (fn, ms, ...args) => add(fn, ms, args, true),',
    '  setImmediate: (fn, ...args) => add(fn, 0, args, false), clearTimeout: clear, clearInterval: clear, clearImmediate: clear,',
    '};',
    'for (const name of Object.keys(globals)) Object.defineProperty(globalThis, name, { value: globals[name], writable: true, configurable: true, enumerable: false });',
    'globalThis.__snipexec_afterTimers = (fn) => { idle.push(fn); if (!draining) { draining = true; realImmediate(tick); } };',
    'Math.random = random;',
    '})();',
  ];
  return source.map((l) => l.trim()).join(' ');
}
