import { callKey, type Snapshot } from '../record/callTrace.ts';
import type { Outcome } from './outcomes.ts';
import type { ProgramIndex } from './programIndex.ts';
import type { ReplayValue } from './replayValue.ts';
import { isSkip, skip, type SkipReason } from './skipReasons.ts';

/**
 * A program function value a test cannot reach (a closure, a nested or anonymous function): the test
 * passes a stand-in in its place, which gives the calls of it the recorded outcomes in order and
 * throws when called more often (a `mock.fn`), and asserts how often it was called.
 */
export interface StandIn {
  /** The test's variable holding it (`onNewLineStandIn`). */
  readonly variable: string;
  readonly key: string;
  readonly qualname: string;
  /** The places of the call's inputs holding a function of this text (`argument visitor`). */
  readonly places: string[];
  /** The calls of it that the code running for real in the test made (childMocks fills them), and their outcomes. */
  readonly calls: number[];
  outcomes: Outcome[];
  async: boolean;
}

/**
 * The function values of one tested call's inputs (arguments, receiver, module state), as a test
 * gives them again: a top-level function, a class method or a function at a path of a top-level
 * object is the program's own (`{ kind: 'function' }`: the same object); any other program function
 * is a stand-in, unless the function object holds state of its own. Built-in and library functions,
 * and a function whose qualname its module gives another function too, are skipped as function values.
 */
export class FunctionValues {
  readonly #index: ProgramIndex;
  readonly #unique: (key: string) => boolean;
  readonly #standIns = new Map<string, StandIn>();
  readonly #taken = new Set<string>();

  /** `unique(key)`: whether the function's module gives its qualname to no other function (a call of it names it). */
  constructor(index: ProgramIndex, unique: (key: string) => boolean) {
    this.#index = index;
    this.#unique = unique;
  }

  /** The stand-ins the call's inputs need, by callKey. */
  get standIns(): ReadonlyMap<string, StandIn> {
    return this.#standIns;
  }

  /** The function value as a test gives it; `mayStandIn`: a closure may be a stand-in (not in a result, which is compared with the program's own objects). */
  resolve(snapshot: Snapshot, where: string, mayStandIn = true): ReplayValue | SkipReason {
    const program = snapshot.function;
    const named = typeof snapshot.value === 'string' && snapshot.value !== '' ? ` (${snapshot.value})` : '';
    if (program === undefined) return skip('function-value', `${where} is a function${named}, not one of the program's`);
    const key = callKey(program.module, program.qualname);
    const reached = this.#reachable(program.module, program.qualname);
    if (reached?.class === true) return { kind: 'function', module: reached.module, path: reached.path };
    if (!this.#unique(key)) return skip('function-value', `${where} is the function ${program.qualname}${named}, whose module gives its name to another function too`);
    if (reached !== undefined) return { kind: 'function', module: reached.module, path: reached.path };
    if (!mayStandIn) return skip('function-value', `${where} is ${program.qualname}${named}, a function no test reaches as the object it is`);
    if (snapshot.withState === true) return skip('function-value', `${where} is ${program.qualname}${named}, a function object holding state of its own (properties, a prototype), which a stand-in would lack`);
    let standIn = this.#standIns.get(key);
    if (standIn === undefined) {
      const base = `${identifier(program.qualname)}StandIn`;
      let variable = base;
      for (let n = 2; this.#taken.has(variable); n++) variable = `${base}${n}`;
      this.#taken.add(variable);
      standIn = { variable, key, qualname: program.qualname, places: [], calls: [], outcomes: [], async: false };
      this.#standIns.set(key, standIn);
    }
    standIn.places.push(where);
    return { kind: 'stand-in', variable: standIn.variable };
  }

  /** A resolver for the values mocks give: the program's own functions only (a closure a mocked child returned is not stood in for). */
  references(): { resolve(snapshot: Snapshot, where: string): ReplayValue | SkipReason } {
    return { resolve: (snapshot, where) => this.resolve(snapshot, where, false) };
  }

  /** Why the stand-ins cannot replay the calls made of them, or undefined when they can: two values of one text, one of them called (which one ran is not known). */
  ambiguity(): SkipReason | undefined {
    for (const s of this.#standIns.values()) {
      if (s.places.length > 1 && s.calls.length > 0) return skip('function-value', `${s.places.join(' and ')} are functions of one text, ${s.qualname}, and which of them each of its calls ran is not known`);
    }
    return undefined;
  }

  /**
   * How a test reaches the program function `qualname` of `module` as the one object it is, from
   * what the module defines as it loads: a top-level function, a class's method, a function at a
   * path of a top-level object. (A path the recording found at exit may go through state the
   * program set up later, which a test importing the module has not: immer's plugins.)
   */
  #reachable(module: string, qualname: string): { readonly module: string; readonly path: readonly string[]; readonly class?: true } | undefined {
    const outline = this.#index.outline(module);
    if (isSkip(outline)) return undefined;
    const binding = outline.bindings.get(qualname);
    if (binding?.kind === 'class') return { module, path: [qualname], class: true };
    if (binding?.kind === 'function') return { module, path: [qualname] };
    const byPath = outline.paths.get(qualname);
    if (byPath !== undefined) return { module, path: byPath.path };
    const [head = '', member, ...deeper] = qualname.split('.');
    const owner = outline.bindings.get(head);
    if (member !== undefined && deeper.length === 0) {
      const members = owner?.kind === 'class' ? owner.shape.members : owner?.kind === 'function' ? (owner.constructs?.members ?? []) : [];
      const found = members.filter((m) => m.name === member && m.access === 'method');
      if (found.length === 1 && found[0] !== undefined) return { module, path: found[0].static ? [head, member] : [head, 'prototype', member] };
    }
    return undefined;
  }
}

function identifier(qualname: string): string {
  const name = qualname.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase());
  const head = name.charAt(0).toLowerCase() + name.slice(1);
  return /^[A-Za-z_$]/.test(head) ? head : `_${head}`;
}
