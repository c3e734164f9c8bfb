import type { Definition } from '../engine/definitionBook.ts';
import { isWithin } from '../engine/elementPaths.ts';

/** One edge scenario: an input element given a value real callers pass that usage never suggests. */
export interface EdgeValue {
  readonly element: string;
  /** The value, as source. */
  readonly source: string;
}

/** An argument outside code passed to a function of the file it was handed: `x.on#cb1#arg0`. */
const CALLBACK_ARGUMENT = /#cb\d+#arg\d+$/;

/** Edge scenarios per changed file, at most: each costs a run of the changed version, and of the base one when it fails. */
export const EDGE_BUDGET = 32;

/** Per learnt category, the edge values tried after `undefined` and `null`: empty, zero, the other shape. */
const BY_CATEGORY: Partial<Record<string, readonly string[]>> = {
  string: ["''", "['example']"],
  array: ['[]', "'example'", '[null]'],
  tuple: ['[]', "'example'"],
  object: ['{}', 'Object.create(null)'],
  function: ['{}'],
  number: ['0', 'NaN'],
};

/**
 * The edge values worth trying, most promising first: for each input of the driven functions
 * (their arguments, the members and results below them, and the arguments outside code passes to
 * the file's callbacks) and each result of a call into code
 * outside the file, `undefined` (a missing argument or option), `null`, then by the learnt
 * value's category `''`, `[]`, `[null]`, `{}` (an object without the member read), an object
 * without a prototype, `0`, `NaN`, a string
 * where an array was used and the reverse. Elements first used on a changed line come first, then
 * those used inside a changed fragment, then the rest, in source order.
 */
export function edgeValues(defs: ReadonlyMap<string, Definition>, drivenTargets: readonly string[], changed: ReadonlySet<number>, inFragment: (line: number) => boolean, budget = EDGE_BUDGET): EdgeValue[] {
  // The arguments of the driven functions, and those outside code passes to the file's callbacks (`inherits#cb0#arg2`).
  const args = [...defs.values()].filter((d) => (d.kind === 'argument' && drivenTargets.some((t) => d.id.startsWith(`${t}#arg`))) || ((d.kind === 'argument' || d.kind === 'part') && CALLBACK_ARGUMENT.test(d.id)));
  const inputs = [...defs.values()].filter((d) => !d.proposal.probe && (d.kind === 'return' || args.some((a) => isWithin(d.id, a.id))));
  const rank = (d: Definition) => (changed.has(d.line) ? 0 : inFragment(d.line) ? 1 : 2);
  inputs.sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.id.length - b.id.length);
  // The elements used on a changed line get all their values first (round 0); the rest breadth
  // first: every element's `undefined` and `null` (round 1) before any element's third value (round 2).
  const rounds: EdgeValue[][] = [[], [], []];
  for (const d of inputs) {
    valuesFor(d).forEach((source, k) => {
      if (source !== d.proposal.source) rounds[rank(d) === 0 ? 0 : k < 2 ? 1 : 2]!.push({ element: d.id, source });
    });
  }
  return rounds.flat().slice(0, budget);
}

/** `undefined`, `null`, then the category's; an empty object (nothing was learnt of it) may as well be a string or a number. */
function valuesFor(d: Definition): string[] {
  const more = d.proposal.category === 'object' && d.proposal.source.trim() === '{}' ? ["'example'", '0'] : BY_CATEGORY[d.proposal.category] ?? [];
  return ['undefined', 'null', ...more];
}

/** The definitions with `edge` standing for its element and nothing below it (an object without its members). */
export function withEdgeValue(defs: ReadonlyMap<string, Definition>, edge: EdgeValue): Map<string, Definition> {
  const out = new Map<string, Definition>();
  for (const [id, d] of defs) {
    if (id === edge.element) out.set(id, { ...d, proposal: { source: edge.source, refs: [], category: categoryOf(edge.source) }, provider: 'edge', history: [...d.history], rejected: [...d.rejected] });
    else if (!isWithin(id, edge.element)) out.set(id, { ...d, history: [...d.history], rejected: [...d.rejected] });
  }
  return out;
}

function categoryOf(source: string): Definition['proposal']['category'] {
  if (source === 'undefined' || source === 'null') return source;
  if (source === '[]' || source.startsWith('[')) return 'array';
  if (source === '{}' || source === 'Object.create(null)') return 'object';
  if (source.startsWith("'")) return 'string';
  return 'number';
}
