import type { Definition } from '../engine/definition.ts';
import type { ReportedError, RunResult } from '../core/runResult.ts';
import type { FindingEvidence } from './diffFile.ts';
import type { CatchHandler } from './catchHandlers.ts';
import type { EdgeValue } from './edgeValues.ts';
import type { Category } from '../core/categories.ts';

/**
 * A value code outside the file may throw (or reject with) that is no ordinary Error, and what
 * drive records when a call throws it on (`message`): a handler that reads `e.stack.length` or
 * writes `e.stack` fails on it where a guarded one rethrows it or returns.
 */
interface ThrownValue {
  readonly source: string;
  readonly message: string;
  readonly category: Category;
}

/** A string thrown (`throw 'failed'`, `Promise.reject('reason')`). */
const A_STRING: ThrownValue = { source: "'example'", message: 'example', category: 'string' };
const UNDEFINED: ThrownValue = { source: 'undefined', message: 'undefined', category: 'undefined' };
/** An Error whose `stack` is read-only (a frozen error, one made by another realm's code). */
const READ_ONLY_STACK: ThrownValue = {
  source: "Object.defineProperty(new Error('example'), 'stack', { value: 'Error: example\\n    at example', writable: false, configurable: false })",
  message: 'example',
  category: 'Error',
};
const NULL: ThrownValue = { source: 'null', message: 'null', category: 'null' };
/** An object whose every member read throws (a revoked proxy's kind). */
const THROWING_GETTERS: ThrownValue = {
  source: "new Proxy({}, { get(_, key) { if (typeof key === 'symbol' || key === 'then') return undefined; throw 'example'; } })",
  message: '[unprintable error]',
  category: 'object',
};

/** In the order tried: the usual ones first. */
export const THROWN_VALUES: readonly ThrownValue[] = [A_STRING, UNDEFINED, READ_ONLY_STACK, NULL, THROWING_GETTERS];

/** Thrown-value scenarios per changed file, at most: tried before the other edge values, within EDGE_BUDGET. */
export const THROWN_BUDGET = 12;

/** The error an injected function fails with in an exploration scenario (thrownElementId): `fetch()!`. */
const THROWN_ELEMENT = /\(\)!$/;

/** A plain name a getter can be written with. */
const MEMBER_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * The thrown-value edges of the scenarios, each with its scenario, at most `budget`, the same edge
 * once (a replaced function is the same in every scenario): a scenario where exploration made an
 * outside call fail has its error (`fetch()!`), which the edge replaces; the others get the
 * functions and arguments replaced (thrownEdges).
 */
export function thrownScenarios<S extends { readonly defs: ReadonlyMap<string, Definition> }>(scenarios: readonly S[], handlers: readonly CatchHandler[], targets: readonly { readonly name: string; readonly line: number }[], budget = THROWN_BUDGET): { edge: EdgeValue; sc: S }[] {
  if (handlers.length === 0) return [];
  const seen = new Set<string>();
  const all = scenarios.flatMap((sc) => thrownEdges(sc.defs, handlers, targets).map((edge) => ({ edge, sc })));
  // The failures exploration injected first: their scenario already reaches the handler.
  all.sort((a, b) => Number(!THROWN_ELEMENT.test(a.edge.element)) - Number(!THROWN_ELEMENT.test(b.edge.element)));
  return all.filter(({ edge }) => { const key = `${edge.element}=${edge.source}`; if (seen.has(key)) return false; seen.add(key); return true; }).slice(0, budget);
}

/**
 * The thrown-value edges for the handlers the change touches: the error an outside call failed with
 * in an exploration scenario (`fetch()!`) given each value; the outside functions called where
 * their failure reaches a handler (`client.fetch` of `try { client.fetch(url) }`) made to throw
 * each value (to reject with it, for a promise chain's handler); then the object arguments of the
 * function around the handler that the guarded code reads, with members whose getters throw it
 * (the value is read inside, where its throw reaches the handler). An edge's `thrown` is the
 * message drive records when the base version lets the value out unchanged.
 */
export function thrownEdges(defs: ReadonlyMap<string, Definition>, handlers: readonly CatchHandler[], targets: readonly { readonly name: string; readonly line: number }[]): EdgeValue[] {
  const out: EdgeValue[] = [];
  const seen = new Set<string>();
  if (handlers.length === 0) return out;
  for (const d of defs.values()) if (THROWN_ELEMENT.test(d.id)) for (const v of THROWN_VALUES) out.push({ element: d.id, source: v.source, category: v.category, thrown: v.message });
  const push = (element: string, category: EdgeValue['category'], make: (v: ThrownValue) => string) => {
    if (seen.has(element)) return;
    seen.add(element);
    for (const v of THROWN_VALUES) out.push({ element, source: make(v), category, thrown: v.message });
  };
  for (const h of handlers) {
    for (const d of defs.values()) {
      const name = /(?:^|\.)([A-Za-z_$][\w$]*)$/.exec(d.id)?.[1];
      if (d.proposal.category !== 'function' || name === undefined || !h.callees.includes(name)) continue;
      push(d.id, 'function', (v) => (h.via === 'throw' ? `function ${name}() { throw ${v.source}; }` : `function ${name}() { return Promise.reject(${v.source}); }`));
    }
  }
  // A function a caller passed, called where its failure reaches the handler: it throws, or returns a rejected promise.
  for (const h of handlers) {
    for (const p of h.calledParams) {
      const target = targets.find((t) => t.line === p.functionLine);
      const element = target && `${target.name}#arg${p.index}`;
      if (element === undefined || !defs.has(element)) continue;
      push(element, 'function', (v) => (h.via === 'throw' ? `function () { throw ${v.source}; }` : `function () { return Promise.reject(${v.source}); }`));
    }
  }
  for (const h of handlers) {
    const target = h.functionLine === undefined ? undefined : targets.find((t) => t.line === h.functionLine);
    if (!target) continue;
    for (const i of h.params) {
      const element = `${target.name}#arg${i}`;
      const members = [...defs.keys()].flatMap((id) => (id.startsWith(`${element}.`) && MEMBER_NAME.test(id.slice(element.length + 1)) ? [id.slice(element.length + 1)] : []));
      if (defs.get(element)?.proposal.category !== 'object' || members.length === 0) continue;
      push(element, 'object', (v) => `{ ${members.map((m) => `get ${m}() { throw ${v.source}; }`).join(', ')} }`);
    }
  }
  return out;
}

/**
 * What the base version did with the thrown value where the changed handler raised `e`:
 * `rethrew` when its same driven call let the value out unchanged (drive records the thrown value's
 * text as the message: no error of the code's own says `example` or `undefined`), `returned` when the call returned;
 * undefined otherwise (it failed some other way, or the error is not a driven call's).
 */
export function rethrown(e: ReportedError, thrown: string, base: RunResult): FindingEvidence['base'] {
  if (e.drive === undefined) return undefined;
  const call = (base.drives ?? []).find((d) => d.target === e.drive);
  if (call?.outcome === 'returned') return 'returned';
  return call?.outcome === 'threw' && call.error?.message === thrown ? 'rethrew' : undefined;
}
