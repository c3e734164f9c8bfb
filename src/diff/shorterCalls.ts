import { declaredParameters, type DriveTarget } from '../instrument/driveTargets.ts';
import type { EdgeValue } from './edgeValues.ts';

/** The element of an arity edge: `transform#arity`, the number of arguments a call of `transform` passes. */
const ARITY = '#arity';

/** The kinds of target drive calls with its arguments (not a getter's, a setter's or a constructor's). */
const CALLED = new Set<DriveTarget['kind']>(['function', 'method', 'static']);

/**
 * Arity edges: for each driven function that reads `arguments` (it may branch on
 * `arguments.length`: `transform(coll, iteratee)` for `transform(coll, acc, iteratee, cb)`), the
 * calls real callers make with fewer arguments than it declares, the longest first: declared - 1
 * down to 1 (to 0 for a function of one parameter). The arguments left out are absent, not undefined.
 */
export function shorterCalls(targets: readonly DriveTarget[], driven: readonly string[]): EdgeValue[] {
  const out: EdgeValue[] = [];
  for (const t of targets) {
    if (!t.readsArguments || !CALLED.has(t.kind) || !driven.includes(t.name)) continue;
    const declared = declaredParameters(t);
    for (let n = declared - 1; n >= (declared > 1 ? 1 : 0); n--) out.push({ element: `${t.name}${ARITY}`, source: String(n), category: 'number' });
  }
  return out;
}

/** The driven function and the number of arguments an arity edge stands for; undefined for another edge. */
export function arityOf(edge: EdgeValue | undefined): { target: string; count: number } | undefined {
  if (!edge?.element.endsWith(ARITY)) return undefined;
  return { target: edge.element.slice(0, -ARITY.length), count: Number(edge.source) };
}

/** The runtime's driveArity for an arity edge, by the targets' indices in `targets` (a version's own). */
export function driveArity(targets: readonly Pick<DriveTarget, 'name'>[], edge: EdgeValue | undefined): Record<number, number> | undefined {
  const arity = arityOf(edge);
  if (!arity) return undefined;
  const k = targets.findIndex((t) => t.name === arity.target);
  return k < 0 ? undefined : { [k]: arity.count };
}
