import type { Definition } from '../engine/definition.ts';
import { isWithin } from '../engine/elementPaths.ts';
import type { Category } from '../core/categories.ts';
import { receiverFieldElementId } from '../protocol/elementIds.ts';
import { EDGE_BUDGET } from './edgeBudget.ts';

/** One edge scenario: an input element given a value real callers pass that usage never suggests. */
export interface EdgeValue {
  readonly element: string;
  /** The value, as source. */
  readonly source: string;
  readonly category: Category;
  /** A thrown-value edge (thrownEdges): the message drive records when a call lets the thrown value out. */
  readonly thrown?: string;
  /** The changed code's literal the string was built from (literalEdges): a value of the type the code expects. */
  readonly literal?: string;
  /** The source wraps the learnt one (its `$i` parts, its members kept): a frozen learnt object. */
  readonly keepsParts?: true;
}

/** An edge value before it is given an element. */
type Edge = Omit<EdgeValue, 'element'>;

/** An argument outside code passed to a function of the file it was handed: `x.on#cb1#arg0`. */
const CALLBACK_ARGUMENT = /#cb\d+#arg\d+$/;

// Its own module so that `diff --help` shows the default without loading the engine.
export { EDGE_BUDGET };

const UNDEFINED: Edge = { source: 'undefined', category: 'undefined' };
const NULL: Edge = { source: 'null', category: 'null' };
const EMPTY_STRING: Edge = { source: "''", category: 'string' };
const A_STRING: Edge = { source: "'example'", category: 'string' };
const EMPTY_ARRAY: Edge = { source: '[]', category: 'array' };
const AN_EMPTY_OBJECT: Edge = { source: '{}', category: 'object' };

/** Per learnt category, the edge values tried after `undefined` and `null`: empty, zero, the other shape. */
const BY_CATEGORY: Partial<Record<Category, readonly Edge[]>> = {
  string: [EMPTY_STRING, { source: "['example']", category: 'array' }],
  array: [EMPTY_ARRAY, A_STRING, { source: '[null]', category: 'array' }],
  tuple: [EMPTY_ARRAY, A_STRING],
  object: [AN_EMPTY_OBJECT, { source: 'Object.create(null)', category: 'object' }, A_STRING],
  function: [AN_EMPTY_OBJECT],
  number: [{ source: '0', category: 'number' }, { source: 'NaN', category: 'number' }],
};
/** For an empty object (nothing was learnt of it), which may as well be a string, a number or a list. */
const FOR_EMPTY_OBJECT: readonly Edge[] = [A_STRING, { source: '0', category: 'number' }, { source: '[null]', category: 'array' }];

/**
 * The edge values worth trying, most promising first: for each input of the driven functions
 * (their arguments and the fields of `this` their callers set, the members and results below them, and the arguments outside code passes to
 * the file's callbacks) and each result of a call into code
 * outside the file, `undefined` (a missing argument or option), `null`, then by the learnt
 * value's category `''`, `[]`, `[null]`, `{}` (an object without the member read), an object
 * without a prototype, `0`, `NaN`, a string
 * where an array was used and the reverse. Elements read on a changed line (first used there, or
 * holding a member that was, or below a parameter the change touches: `hot`, hotParameters) come
 * first, then those used inside a changed fragment, then the rest, in source order. `beside`:
 * edges tried in the round of the `undefined`s (shorter calls, own-class instances); `first`: edges
 * made for a changed line (frozen objects), before all.
 */
export function edgeValues(defs: ReadonlyMap<string, Definition>, drivenTargets: readonly string[], changed: ReadonlySet<number>, inFragment: (line: number) => boolean, budget = EDGE_BUDGET, hot: readonly string[] = [], beside: readonly EdgeValue[] = [], first: readonly EdgeValue[] = []): EdgeValue[] {
  const inputs = edgeInputs(defs, drivenTargets);
  // An element read on a changed line: one first used there, or one whose member is (`list[i]` of `list[i][0]`).
  const onChange = [...defs.values()].filter((d) => changed.has(d.line));
  const rank = (d: Definition) => (onChange.some((c) => isWithin(c.id, d.id)) || hot.some((h) => isWithin(d.id, h)) ? 0 : inFragment(d.line) ? 1 : 2);
  inputs.sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.id.length - b.id.length);
  // The elements used on a changed line get all their values first (round 0); the rest breadth
  // first: every element's `undefined` and `null` (round 1) before any element's third value (round 2).
  // `beside` (a caller's omitted arguments, as `undefined` is; the module's own objects) opens round 1, `first` round 0.
  const rounds: EdgeValue[][] = [[...first], [...beside], []];
  for (const d of inputs) {
    valuesFor(d).forEach((edge, k) => {
      if (edge.source !== d.proposal.source) rounds[rank(d) === 0 ? 0 : k < 2 ? 1 : 2]!.push({ element: d.id, ...edge });
    });
  }
  return rounds.flat().slice(0, budget);
}

/**
 * The edge values of the category an edge value gave its element (`''` for `'example'` where an
 * object was learnt, `[]` and `[null]` for `['example']` where a string was): the element's own
 * edge values in its new shape, tried in the scenario that shape opened (where the element is held,
 * so edgeValues never offers them). None when the edge value kept the learnt category.
 */
export function reshapedEdges(edge: EdgeValue, learnt: Category): EdgeValue[] {
  if (edge.category === learnt) return [];
  return (BY_CATEGORY[edge.category] ?? []).filter((e) => e.category === edge.category && e.source !== edge.source).map((e) => ({ element: edge.element, ...e }));
}

/** The inputs edge values are tried on: the driven functions' arguments (and those outside code passes to the file's callbacks, `inherits#cb0#arg2`), what lies below them, and the results of outside calls. */
export function edgeInputs(defs: ReadonlyMap<string, Definition>, drivenTargets: readonly string[]): Definition[] {
  const args = [...defs.values()].filter((d) => (d.kind === 'argument' && drivenTargets.some((t) => d.id.startsWith(`${t}#arg`) || d.id.startsWith(receiverFieldElementId(t, '')))) || ((d.kind === 'argument' || d.kind === 'part') && CALLBACK_ARGUMENT.test(d.id)));
  return [...defs.values()].filter((d) => !d.proposal.probe && (d.kind === 'return' || args.some((a) => isWithin(d.id, a.id))));
}

/** `undefined`, `null`, then the category's; an empty object (nothing was learnt of it) may as well be a string or a number. */
function valuesFor(d: Definition): Edge[] {
  const more = d.proposal.category === 'object' && d.proposal.source.trim() === '{}' ? FOR_EMPTY_OBJECT : BY_CATEGORY[d.proposal.category] ?? [];
  return [UNDEFINED, NULL, ...more];
}

/** The definitions with `edge` standing for its element and nothing below it (an object without its members), unless the edge keeps its parts. */
export function withEdgeValue(defs: ReadonlyMap<string, Definition>, edge: EdgeValue): Map<string, Definition> {
  const out = new Map<string, Definition>();
  for (const [id, d] of defs) {
    if (id === edge.element) out.set(id, { ...d, proposal: { source: edge.source, refs: edge.keepsParts ? d.proposal.refs : [], category: edge.category }, provider: 'edge', history: [...d.history], rejected: [...d.rejected] });
    else if (edge.keepsParts || !isWithin(id, edge.element)) out.set(id, { ...d, history: [...d.history], rejected: [...d.rejected] });
  }
  return out;
}
