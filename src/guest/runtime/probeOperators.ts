/**
 * What recording proxies answer where the code decides or computes with them: promise methods
 * and `await`, array patterns, comparisons and arithmetic. Each is recorded in the probe's trace,
 * then answered so that the code goes on (the answer the instrumenter prefers, where it knows one).
 */
import type { OperandRecord } from '../../protocol/trace.ts';
import { isInjected, ownerOf } from './elements.ts';
import { arithmetic } from './operators.ts';
import { ownSpecies } from './native.ts';
import { push, rec, str } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, PromiseCtor, promiseFinally, promiseResolve, promiseThen, StringCtor } from './primordials.ts';
import { child, infoOf, isFailureProbe, isProbe, kindOf, leafName, note, primitiveOf, probeId, traceOf } from './probes.ts';

const MAX_TRUE_COMPARISONS = 2;

/** `p.then(…)`, `p.catch(…)`, `p.finally(…)` on a probe: a real promise of the awaited value. */
export function probePromiseMethod(p: unknown, key: 'then' | 'catch' | 'finally'): (...args: unknown[]) => unknown {
  const t = traceOf(probeId(p));
  t.awaited = true;
  note(t, 'promiseMethods', key);
  const settled = apply(promiseResolve, PromiseCtor, [child(p, `await ${probeId(p)}`, undefined)]) as Promise<unknown>;
  ownSpecies(settled); // then/finally make their promise with the real Promise
  return function (...args: unknown[]) {
    if (key === 'then') return apply(promiseThen, settled, args);
    if (key === 'finally') return apply(promiseFinally, settled, args);
    return settled;
  };
}
/** `await p` of a probe: the probe of the awaited value. */
export function probeAwait(p: unknown): unknown {
  const t = traceOf(probeId(p));
  t.awaited = true;
  return child(p, `await ${probeId(p)}`, undefined);
}
/** `[a, b] = p` of a probe: an array of its first `length` elements' probes. */
export function probePattern(p: unknown, length: number): unknown[] {
  const t = traceOf(probeId(p));
  if (!((t.pattern as number) >= length)) t.pattern = length;
  const out: unknown[] = [];
  for (let i = 0; i < length; i++) push(out, child(p, `${probeId(p)}[${i}]`, StringCtor(i)));
  return out;
}

const NULLISH = (v: unknown): boolean => v === null || v === undefined;
/** The comparisons a recording proxy answers with a boolean (the one home of this set in the runtime). */
export const COMPARISON_OPS: Record<string, 1> = rec({ '===': 1, '==': 1, '!==': 1, '!=': 1, '<': 1, '>': 1, '<=': 1, '>=': 1 });
/** The equality operators, and which of them are negated. */
const EQUALITY_OPS: Record<string, boolean> = rec({ '===': false, '==': false, '!==': true, '!=': true });
const NEGATED: Record<string, string> = rec({ '===': '!==', '==': '!=', '!==': '===', '!=': '==', '<': '>=', '>': '<=', '<=': '>', '>=': '<' });
const FLIPPED: Record<string, string> = rec({ '<': '>', '>': '<', '<=': '>=', '>=': '<=' });
/** The probe of a binary operation, the other operand, and the relation as seen from the probe's side. */
function operands(op: string, a: unknown, b: unknown): { left: boolean; p: unknown; other: unknown; entry: { -readonly [K in keyof OperandRecord]: OperandRecord[K] } } {
  const left = isProbe(a);
  const p = left ? a : b;
  const other = left ? b : a;
  const entry: { -readonly [K in keyof OperandRecord]: OperandRecord[K] } = rec({ op: left ? op : FLIPPED[op] || op, type: kindOf(other) });
  const value = primitiveOf(other);
  if (value !== undefined) entry.value = value;
  if (other === undefined) entry.value = '__undefined__';
  return rec({ left, p, other, entry });
}
function answerAs(op: string, a: unknown, b: unknown, answer: boolean): boolean {
  const { p, other, entry } = operands(op, a, b);
  if (!answer) entry.op = NEGATED[entry.op];
  if (!isProbe(other)) note(traceOf(probeId(p)), 'compared', entry);
  return answer;
}
/**
 * A comparison or arithmetic operation with a probe operand: recorded, then answered so the code
 * goes on. `prefer` is the answer that runs more of the code, where the instrumenter knows one; the
 * trace records the relation as answered (`x === 'a'` answered false is recorded as `x !== 'a'`),
 * so the value synthesised later takes the same path.
 */
export function probeOperator(op: string, a: Dyn, b: Dyn, prefer: boolean | undefined, self = false): unknown {
  // An injected error is an object: `err == null` is false whatever a guard clause prefers, as it will be in the measured run.
  const negated = EQUALITY_OPS[op];
  // `v !== v` in the source (`self`) is true of NaN alone: it equals itself unless a scenario asks
  // for the other answer, and the trace records which, so the value learnt is NaN when it must be.
  if (self && negated !== undefined && a === b && isProbe(a)) {
    const answer = prefer !== undefined ? prefer : !negated;
    note(traceOf(probeId(a)), 'compared', rec<OperandRecord>({ op: answer === negated ? '!==' : '===', type: 'self' }));
    return answer;
  }
  if (negated !== undefined && ((isFailureProbe(a) && NULLISH(b)) || (isFailureProbe(b) && NULLISH(a)))) return negated;
  if (prefer !== undefined && op !== 'instanceof' && op !== 'in' && COMPARISON_OPS[op] === 1) return answerAs(op, a, b, prefer);
  if (prefer === false && (op === 'instanceof' || op === 'in')) {
    // Still learn that the right side of instanceof is a constructor, whatever the answer.
    if (op === 'instanceof' && isProbe(b)) note(traceOf(probeId(b)), 'reads', 'prototype');
    return false;
  }
  const { left, p, other, entry } = operands(op, a, b);
  const info = infoOf(p);
  const t = traceOf(info.id);
  // The relation is recorded as answered (`x !== 'GET'` answered false as `x === 'GET'`), so the value learnt takes the same path.
  const answered = (answer: boolean): boolean => {
    if (!answer) entry.op = NEGATED[entry.op];
    note(t, 'compared', entry);
    return answer;
  };
  switch (op) {
    case '===':
    case '==':
      if (NULLISH(other) || other === -1) return answered(false);
      return answered(isProbe(other) ? true : info.compares++ < MAX_TRUE_COMPARISONS);
    case '!==':
    case '!=':
      // `i !== -1` after indexOf means found; otherwise assume the value is the one compared with.
      return answered(NULLISH(other) || other === -1);
    case '<':
    case '>':
    case '<=':
    case '>=':
      return answered(info.compares++ < MAX_TRUE_COMPARISONS);
    case 'instanceof':
      if (left) {
        const name = typeof b === 'function' ? (isInjected(b) ? `@${ownerOf(b)}` : str(b.name)) : '?';
        note(t, 'instanceOf', name);
        return true;
      }
      // The right-hand side of instanceof is a constructor: instanceof reads its prototype.
      note(t, 'reads', 'prototype');
      return false;
    case 'in':
      if (!left) {
        note(t, 'has', str(a));
        return true;
      }
      note(t, 'hints', 'string');
      return false;
  }
  note(t, 'arith', entry);
  const stand = op === '+' && typeof other === 'string' ? leafName(info.id) : 1;
  return arithmetic(op, left ? stand : a, left ? b : stand);
}
