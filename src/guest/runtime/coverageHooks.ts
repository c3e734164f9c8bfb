/**
 * The hooks that count: statements, branch outcomes and loops (src/instrument/coverageVisitor.ts
 * places them). After an environment's exit(), or once a watched loop stalled, nothing runs: each
 * throws what ends the run again (run.unwind), past any catch.
 * A counter's first count is also counted in firstHits (the staleness of timers reads it).
 */
import { STALL_TURNS } from '../../protocol/runtime.ts';
import { branches, firstHits, loopStacks, statements, watchedLoops } from './coverage.ts';
import { WITH_HANDLER } from './hookGuard.ts';
import { list, pop, push } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { ObjectCtor, ProxyCtor, TypeErrorCtor } from './primordials.ts';
import { isProbe, MAX_PROBED_ITERATIONS, probeOps } from './probes.ts';
import { HALT, run } from './run.ts';

export function statement(id: number): void {
  if (run.unwind !== undefined) throw run.unwind;
  if (statements[id]++ === 0) firstHits.n++;
}
export function test<T>(id: number, v: T): T {
  if (run.unwind !== undefined) throw run.unwind;
  if (statements[id]++ === 0) firstHits.n++;
  return v;
}
export function returned<T>(id: number, v: T): T {
  if (run.unwind !== undefined) throw run.unwind;
  if (statements[id]++ === 0) firstHits.n++;
  return v;
}
/** `return` out of loops: they are left, so they count too. */
export function returnedFromLoops<T>(id: number, v: T, left: readonly number[]): T {
  if (run.unwind !== undefined) throw run.unwind;
  if (statements[id]++ === 0) firstHits.n++;
  for (let i = 0; i < left.length; i++) if (statements[left[i]]++ === 0) firstHits.n++;
  return v;
}
export function branch(id: number, i: number): void {
  if (run.unwind !== undefined) throw run.unwind;
  if (branches[id][i]++ === 0) firstHits.n++;
}
export function logical<T>(id: number, v: T, op: string): T {
  if (run.unwind !== undefined) throw run.unwind;
  if (op === '&&' ? !v : op === '||' ? v : v !== null && v !== undefined) {
    if (branches[id][0]++ === 0) firstHits.n++;
  }
  return v;
}
// Loops: one frame per entry, whether its body ran and how many iterations recording proxies took part in.
export function loopEnter(id: number): void {
  // A plain literal (no rec): its four fields are its own from the start and only ever read or
  // overwritten, so no prototype takes part, and a loop inside a loop makes one per entry.
  push((loopStacks[id] ||= list()), { entered: false, probed: 0, ops: probeOps, turns: 0 });
}
export function loopBody(id: number): void {
  if (run.unwind !== undefined) throw run.unwind;
  if (branches[id][0]++ === 0) firstHits.n++;
  const s = loopStacks[id];
  if (s && s.length) {
    const f = s[s.length - 1];
    f.entered = true;
    // A watched loop (one a learnt function is called in) that keeps going: the run ends as stalled, now rather than at its deadline.
    if (watchedLoops[id] === true && ++f.turns >= STALL_TURNS) {
      run.stalledLoop = id;
      run.halted = run.stopped = true;
      throw (run.unwind = HALT);
    }
  }
}
export function loopExit(id: number): void {
  const s = loopStacks[id];
  if (s && s.length && !pop(s).entered && branches[id][1]++ === 0) firstHits.n++;
}
/** A loop test: false once recording proxies kept the loop going for MAX_PROBED_ITERATIONS, whatever they answer. */
export function loopTest<T>(id: number, v: T): T | false {
  if (run.unwind !== undefined) throw run.unwind;
  const s = loopStacks[id];
  const f = s && s.length ? s[s.length - 1] : undefined;
  if (f !== undefined && (f.ops !== probeOps || isProbe(v))) {
    f.ops = probeOps;
    if (++f.probed > MAX_PROBED_ITERATIONS) return false;
  }
  return v;
}
/** `with (o)`: counted, and o wrapped so that it cannot answer for the hook's name (its has says false). */
export function withObject(id: number, o: Dyn): object {
  if (run.unwind !== undefined) throw run.unwind;
  if (statements[id]++ === 0) firstHits.n++;
  if (o === null || o === undefined) throw new TypeErrorCtor('Cannot convert undefined or null to object');
  return new ProxyCtor(ObjectCtor(o), WITH_HANDLER);
}
