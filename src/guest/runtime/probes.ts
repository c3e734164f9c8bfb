/**
 * The recording proxies of trace mode. A probe stands for a missing element during a learning
 * run. It lets the code go on and records every operation performed on it; each property read,
 * call result, awaited value, element or callback argument is a child probe with a trace of its
 * own. The host synthesises concrete values from the traces; probes never appear in a measured run.
 */
import { failureMessage, LISTED_KEY, thrownElementId } from '../../protocol/elementIds.ts';
import type { ValueOutcome } from '../../protocol/runtime.ts';
import { KEY_ELEMENT, type Trace } from '../../protocol/trace.ts';
import { childId, register } from './elements.ts';
import { recordCall, runCallbacks } from './probeCallbacks.ts';
import { cut, exec, list, push, rec } from './ownData.ts';
import type { Dyn } from './primordials.ts';
import { apply, defineProperty, objHasOwn, ErrorCtor, promiseReject, PromiseCtor, getOwnPropertyDescriptor, getPrototypeOf, INSPECT_CUSTOM, isArray, ObjectCreate, ownKeys, ProxyCtor, strSlice, symAsyncIterator, symIterator, symToPrimitive, WM, wmGet, wmHas, wmSet } from './primordials.ts';
import { toJson } from './toJson.ts';
import { run } from './run.ts';

const MAX_TRACES = 2000;
const MAX_LIST = 8;
const MAX_PROBE_OPS = 100000;
/** Iterations of one loop entry that recording proxies may keep going (the loopTest hook), whatever they answer. */
export const MAX_PROBED_ITERATIONS = 3;

export interface ProbeInfo extends Chain {
  readonly id: string;
  readonly parent: string | undefined;
  readonly key: string | undefined;
  /** What the snippet wrote on the probe: read back as written. */
  readonly written: Record<string, unknown>;
  /** Comparisons answered true so far. */
  compares: number;
}

/**
 * Past this depth, or this many reads in a row of one key (`node.parent.parent…`), a member of a
 * recording proxy is undefined: the end of the chain. Otherwise a walk up a tree or along a list
 * (`while (node = node.next)`, `isInside(node.parent)`) never ends: each level is a new element,
 * and the learning run recursed until memory ran out (eslint's arrow-body-style: 11 runs of 1 s).
 * Likewise an element this many elements deep (`obj[0][1][0][1]`) iterates as empty: a recursive
 * walk over what a probe yields (two elements each) doubles at each level, and spent the learning
 * run's whole operation budget (axios's toJSONObject: 1.2 s per learning run).
 */
const MAX_PROBE_DEPTH = 32;
const MAX_KEY_REPEATS = 8;
const MAX_NESTING = 4;
const LAST_MEMBER = /\.([A-Za-z_$][\w$]*)$/;
const LAST_INDEX = /\[\d+\]$/;

/** An element id's chain: its steps (members, calls, elements: `a.b()[0]` has 3), which member it ends with and how many times in a row (`node.parent.parent`: parent, 2), and how many element steps it ends with (`a[0][1]`: 2). */
export interface Chain {
  readonly depth: number;
  readonly last: string | undefined;
  readonly repeats: number;
  readonly nesting: number;
}

/** What an interop helper (esbuild's, Babel's) asks a module to tell an ES module namespace: never learnt, a learnt module being a CommonJS value. */
export const INTEROP_KEY = '__esModule';

/** Whether reading `key` of the element (a probe's info, or an id's chainOf) goes past the caps: the member is undefined. */
export function chainEnds(at: Chain, key: string): boolean {
  return at.depth >= MAX_PROBE_DEPTH || (at.last === key && at.repeats >= MAX_KEY_REPEATS);
}

/** Whether iterating the element goes past the nesting cap: it yields nothing. */
export function nestedTooDeep(at: Chain): boolean {
  return at.nesting >= MAX_NESTING || at.depth >= MAX_PROBE_DEPTH;
}

/**
 * An element id's chain, from the id, not the probe it was reached from: a value learnt up to the
 * cap is injected again as a new probe in the next learning run, and must not start counting afresh.
 */
export function chainOf(id: string): Chain {
  let depth = 0;
  for (let i = 0; i < id.length; i++) {
    const c = id[i];
    if (c === '.' || c === '[' || c === '(') depth++;
  }
  let nesting = 0;
  for (let rest = id, m = exec(LAST_INDEX, rest); m; m = exec(LAST_INDEX, rest)) {
    nesting++;
    rest = apply(strSlice, rest, [0, rest.length - m[0].length]);
  }
  const m = exec(LAST_MEMBER, id);
  if (!m) return { depth, last: undefined, repeats: 0, nesting };
  const step = `.${m[1]}`;
  let repeats = 0;
  for (let end = id.length; end >= step.length && apply(strSlice, id, [end - step.length, end]) === step; end -= step.length) repeats++;
  return { depth, last: m[1], repeats, nesting };
}

/** Element id -> the other outcome this scenario asks of its probe (exploration); the runtime's own copy of config.outcomes. */
const OUTCOMES: Record<string, ValueOutcome> = ObjectCreate(null);
export function initOutcomes(outcomes: Readonly<Record<string, ValueOutcome>> | undefined): void {
  const keys = ownKeys(outcomes || {});
  for (let i = 0; i < keys.length; i++) OUTCOMES[keys[i] as string] = (outcomes as Record<string, ValueOutcome>)[keys[i] as string];
}
export function outcomeOf(id: string): ValueOutcome | undefined {
  return OUTCOMES[id];
}
/** The error an injected function fails with, or an error-first callback is called with, in an exploration scenario. */
export function injectedFailure(id: string): Error {
  const message = failureMessage(id);
  const e = new ErrorCtor(message);
  defineProperty(e, 'stack', rec<PropertyDescriptor>({ value: `Error: ${message}`, writable: true, configurable: true }));
  return e;
}

/** Element id -> trace record (plain JSON data), reported to the host. */
export const traces: Record<string, Trace> = ObjectCreate(null);
/** Element id -> its probe in this run. */
export const probes: Record<string, Dyn> = ObjectCreate(null);
const probeInfo: WeakMap<object, ProbeInfo> = new WM();
let traceCount = 0;
/** Operations recording proxies answered so far; the learning run ends past MAX_PROBE_OPS. */
export let probeOps = 0;

export function isProbe(v: unknown): boolean {
  return typeof v === 'function' && wmHas(probeInfo, v);
}
export function probeId(v: unknown): string {
  return (wmGet(probeInfo, v) as ProbeInfo).id;
}
/** A recording proxy that stands for an error exploration injected (a callback's, a failing callee's): an object, so truthy and never nullish. */
export function isFailureProbe(v: unknown): boolean {
  return isProbe(v) && traces[probeId(v)]?.failure === true;
}
export function infoOf(p: unknown): ProbeInfo {
  return wmGet(probeInfo, p) as ProbeInfo;
}
export function traceOf(id: string): Trace {
  let t = traces[id];
  if (t === undefined) {
    t = rec<Trace>({ id });
    if (traceCount < MAX_TRACES) {
      traces[id] = t;
      traceCount++;
    }
  }
  return t;
}
/** Counts one operation a probe answers; past the budget the learning run ends. */
export function spend(): void {
  if (++probeOps > MAX_PROBE_OPS) {
    run.stopped = true;
    throw new ErrorCtor('snipexec: learning budget exhausted');
  }
}
/**
 * Whether two values noted in a trace are the same JSON. The runtime's own records and lists (no
 * prototype, data properties only) are compared member by member, which is far cheaper than
 * serialising both; anything else (a value of the snippet's) by its JSON text.
 */
function same(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth > 16 || getPrototypeOf(a) !== null || getPrototypeOf(b) !== null) return toJson(a) === toJson(b);
  const ka = ownKeys(a);
  const kb = ownKeys(b);
  if (ka.length !== kb.length || isArray(a) !== isArray(b)) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i];
    if (k !== kb[i] || !same((a as Dyn)[k], (b as Dyn)[k], depth + 1)) return false;
  }
  return true;
}
type ListField = { [K in keyof Trace]-?: NonNullable<Trace[K]> extends readonly unknown[] ? K : never }[keyof Trace];
/** Adds a value to one of a trace's lists, once, up to MAX_LIST entries. */
export function note<K extends ListField>(t: Trace, field: K, value: NonNullable<Trace[K]>[number]): void {
  const values = (t[field] || (t[field] = list() as never)) as unknown[];
  for (let i = 0; i < values.length; i++) if (same(values[i], value)) return;
  if (values.length < MAX_LIST) push(values, value);
}
/** A value's kind as a trace records it: typeof, or 'null', 'array', 'probe'. */
export function kindOf(v: unknown): string {
  if (isProbe(v)) return 'probe';
  if (v === null) return 'null';
  if (isArray(v)) return 'array';
  return typeof v;
}
/** A primitive as a trace records it (strings cut, NaN and infinities null); undefined for any other value. */
export function primitiveOf(v: unknown): string | number | boolean | null | undefined {
  const k = typeof v;
  if (v === null || k === 'string' || k === 'boolean') return typeof v === 'string' ? cut(v, 200) : (v as boolean | null);
  if (k === 'number') return v === v && v !== Infinity && v !== -Infinity ? (v as number) : null;
  return undefined;
}
/** The last name in an element id (`a.b().c` -> c), which a probe prints and converts to. */
const LAST_NAME = /([A-Za-z_$][\w$]*)[^\w$]*$/;
export function leafName(id: string): string {
  const m = exec(LAST_NAME, id);
  return m ? m[1] : 'value';
}
function standIn(id: string, hint: string): string | number {
  return hint === 'number' ? 1 : leafName(id);
}

/**
 * The string a probe last converted to, and probeOps then: `obj[key]` converts `key` and, with no
 * other probe operation between, reads the string on `obj`, which notes that read as keyed by it
 * (Trace.keyedBy), so the member can be learnt under the key's final value, whatever it becomes.
 * Only a probe a definition can name (KEY_ELEMENT: a name, a member chain, a string method of one) can stand for a key there.
 */
let lastKey: { readonly value: string; readonly id: string; readonly at: number } | undefined;

/** Whether a probe lists LISTED_KEY: not when the snippet wrote it, nor when it was reached by it (a walk over nested keys ends). */
function listsKey(info: ProbeInfo): boolean {
  return !(LISTED_KEY in info.written) && info.key !== LISTED_KEY;
}

/** The probe of an element: one per id and run, so a function's result is the same each call. */
export function probeFor(id: string, parent: string | undefined, key: string | undefined): Dyn {
  const existing = probes[id];
  if (existing !== undefined) return existing;
  const t = traceOf(id);
  if (parent !== undefined && t.parent === undefined) t.parent = parent;
  if (key !== undefined && t.key === undefined) t.key = key;
  const info = rec<ProbeInfo>({ id, parent, key, written: ObjectCreate(null), compares: 0, ...chainOf(id) });
  const target = function () {};
  const proxy: Dyn = new ProxyCtor(target, rec<ProxyHandler<() => void>>({
    get(_, k) {
      spend();
      if (typeof k === 'symbol') {
        if (k === symToPrimitive) return (hint: string) => {
          note(t, 'hints', hint);
          const value = standIn(id, hint);
          lastKey = typeof value === 'string' && exec(KEY_ELEMENT, id) !== null ? rec({ value, id, at: probeOps }) : undefined;
          return value;
        };
        if (k === INSPECT_CUSTOM) return () => `[${leafName(id)}]`; // console.log prints a probe by name, reading nothing
        // Two elements: enough for a pair pattern, and for a loop body to run twice.
        if (k === symIterator) {
          t.iterated = true;
          if (OUTCOMES[id] === 'empty') {
            t.emptied = true;
            return function* () {};
          }
          if (nestedTooDeep(info)) return function* () {};
          return function* () {
            yield child(proxy, `${id}[0]`, '0');
            yield child(proxy, `${id}[1]`, '1');
          };
        }
        if (k === symAsyncIterator) {
          t.iterated = true;
          t.asyncIterated = true;
          if (OUTCOMES[id] === 'empty') {
            t.emptied = true;
            return async function* () {};
          }
          if (nestedTooDeep(info)) return async function* () {};
          return async function* () {
            yield child(proxy, `${id}[0]`, '0');
            yield child(proxy, `${id}[1]`, '1');
          };
        }
        return undefined;
      }
      if (k in info.written) return info.written[k];
      // Not thenable for the engine: only an explicit `.then(…)` in the snippet makes a promise. Not
      // an ES module namespace to an interop helper (`__esModule`, esbuild's and Babel's): a learnt
      // module is a CommonJS value, its default import the value itself.
      if (k === 'then' || k === 'toJSON' || k === INTEROP_KEY) return undefined;
      if (chainEnds(info, k)) return undefined;
      note(t, 'reads', k);
      if (lastKey !== undefined && lastKey.at + 1 === probeOps && lastKey.value === k && lastKey.id !== id) {
        const pair = list<string>();
        push(pair, k);
        push(pair, lastKey.id);
        note(t, 'keyedBy', pair as unknown as [string, string]);
      }
      lastKey = undefined;
      return child(proxy, childId(id, k), k);
    },
    set(_, k, v) {
      spend();
      if (typeof k !== 'symbol') {
        info.written[k] = v;
        note(t, 'writes', k);
      }
      return true;
    },
    has(_, k) {
      spend();
      if (typeof k !== 'symbol') note(t, 'has', k);
      return typeof k !== 'symbol';
    },
    deleteProperty(_, k) {
      if (typeof k !== 'symbol') delete info.written[k];
      return true;
    },
    defineProperty(_, k, d) {
      if (typeof k !== 'symbol' && 'value' in d) {
        info.written[k] = d.value;
        note(t, 'writes', k);
      }
      return true;
    },
    getOwnPropertyDescriptor(tgt, k) {
      // The keys it lists (below) are its own, enumerable and configurable (a proxy may report them so on an extensible target).
      if (typeof k === 'string' && !apply(objHasOwn, tgt, [k])) {
        if (k in info.written) return rec<PropertyDescriptor>({ value: info.written[k], writable: true, enumerable: true, configurable: true });
        if (k === LISTED_KEY && OUTCOMES[id] !== 'empty' && listsKey(info)) return rec<PropertyDescriptor>({ value: undefined, writable: true, enumerable: true, configurable: true });
      }
      return getOwnPropertyDescriptor(tgt, k);
    },
    ownKeys(tgt) {
      // `for (k in obj)`, Object.keys(obj): what the snippet wrote on it, and one key more, so a loop
      // over its keys runs its body (reading obj[k] then learns a member); none when exploration empties it.
      t.keysListed = true;
      const keys = ownKeys(tgt);
      const written = ownKeys(info.written);
      for (let i = 0; i < written.length; i++) if (!apply(objHasOwn, tgt, [written[i]])) push(keys, written[i]);
      if (OUTCOMES[id] === 'empty') t.emptied = true;
      else if (listsKey(info)) push(keys, LISTED_KEY);
      return keys;
    },
    getPrototypeOf(tgt) {
      t.protoRead = true;
      return getPrototypeOf(tgt);
    },
    apply(_, _self, args) {
      spend();
      t.called = (t.called || 0) + 1;
      const callbacks = recordCall(t, 'calls', args);
      const fails = OUTCOMES[id];
      if (fails === 'throw' || fails === 'reject') {
        // Exploration: the injected function fails, for the snippet's catch to take over.
        // What the catch reads of the error is learnt (`e.code === 'ENOENT'`), and made an Error with it.
        t.fails = fails;
        const thrown = thrownElementId(id);
        traceOf(thrown).failure = true;
        const error = probeFor(thrown, undefined, undefined);
        if (fails === 'throw') throw error;
        return apply(promiseReject, PromiseCtor, [error]);
      }
      runCallbacks(info, callbacks, args);
      return child(proxy, `${id}()`, undefined);
    },
    construct(_, args) {
      spend();
      t.constructed = (t.constructed || 0) + 1;
      const callbacks = recordCall(t, 'constructs', args);
      runCallbacks(info, callbacks, args);
      return child(proxy, `new ${id}`, undefined);
    },
  }));
  wmSet(probeInfo, proxy, info);
  register(proxy, id);
  probes[id] = proxy;
  return proxy;
}
/** The child probe `id` of a probe (reached by `key`, when by a member). */
export function child(parentProbe: unknown, id: string, key: string | undefined): Dyn {
  return probeFor(id, probeId(parentProbe), key);
}
