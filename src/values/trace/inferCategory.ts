import type { Usage } from '../../instrument/usage.ts';
import { byName, rankCategories } from '../classifyHeuristic.ts';
import type { Category } from '../types.ts';
import { isUsed, memberId, type Trace, type TraceView } from './trace.ts';

// Methods whose call reveals the receiver's type.
const STRING_METHODS = new Set(['toUpperCase', 'toLowerCase', 'trim', 'trimStart', 'trimEnd', 'split', 'startsWith', 'endsWith', 'charAt', 'charCodeAt', 'codePointAt', 'substring', 'substr', 'padStart', 'padEnd', 'replace', 'replaceAll', 'match', 'matchAll', 'localeCompare', 'normalize', 'repeat', 'toLocaleLowerCase', 'toLocaleUpperCase', 'search']);
const ARRAY_METHODS = new Set(['map', 'forEach', 'filter', 'reduce', 'reduceRight', 'push', 'pop', 'shift', 'unshift', 'some', 'every', 'find', 'findIndex', 'findLast', 'sort', 'splice', 'flatMap', 'flat', 'join', 'reverse', 'fill', 'entries']);
const SHARED_SEQUENCE_METHODS = new Set(['slice', 'indexOf', 'lastIndexOf', 'includes']);
const NUMBER_METHODS = new Set(['toFixed', 'toPrecision', 'toExponential']);
const DATE_METHODS = new Set(['getTime', 'getFullYear', 'getMonth', 'getDate', 'getDay', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds', 'toISOString', 'toLocaleDateString', 'toLocaleTimeString', 'toUTCString', 'toDateString', 'setDate', 'setHours', 'setFullYear', 'setMonth', 'getTimezoneOffset', 'valueOf']);
const ELEMENT_MEMBERS = new Set(['addEventListener', 'removeEventListener', 'querySelector', 'querySelectorAll', 'innerHTML', 'textContent', 'innerText', 'classList', 'appendChild', 'setAttribute', 'getAttribute', 'removeChild', 'style', 'dataset', 'parentNode', 'getElementsByTagName', 'getElementsByClassName', 'closest', 'focus', 'tagName', 'insertBefore', 'outerHTML', 'childNodes', 'firstChild', 'nextSibling', 'getBoundingClientRect', 'offsetWidth', 'offsetHeight', 'scrollTop']);
const BUILTIN_INSTANCE: Record<string, Category> = {
  Date: 'Date', Array: 'array', Error: 'Error', TypeError: 'Error', Map: 'Map', Set: 'Set', RegExp: 'RegExp', Promise: 'promise',
  Function: 'function', String: 'string', Number: 'number', Boolean: 'boolean', Object: 'object', HTMLElement: 'element', Element: 'element', Node: 'element',
};

/** Keys that every object answers; reading them says nothing about the element's shape. */
export const OBJECT_KEYS = new Set(['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__proto__']);

export interface TraceFacts {
  readonly trace: Trace | undefined;
  /** Members read, and called among them. */
  readonly reads: readonly string[];
  readonly methods: readonly string[];
  readonly methodArgs: ReadonlyMap<string, readonly (string | number | boolean | null)[]>;
}

export function factsOf(id: string, trace: Trace | undefined, traces: TraceView): TraceFacts {
  const reads = (trace?.reads ?? []).filter((k) => !OBJECT_KEYS.has(k));
  const methods: string[] = [];
  const methodArgs = new Map<string, (string | number | boolean | null)[]>();
  for (const k of reads) {
    const child = traces.get(memberId(id, k));
    if (child?.called) {
      methods.push(k);
      methodArgs.set(k, (child.calls ?? []).flatMap((c) => c.values.slice(0, 1)));
    }
  }
  return { trace, reads, methods, methodArgs };
}

/** `re.test(s)` and `re.exec(s)`, one string and no callback: not `child_process.exec(cmd, cb)`. */
function looksLikeRegExp(id: string, facts: TraceFacts, traces: TraceView): boolean {
  const regexpKeys = new Set(['test', 'exec', 'source', 'flags', 'lastIndex', 'global']);
  if (!facts.methods.some((m) => m === 'test' || m === 'exec') || !facts.reads.every((k) => regexpKeys.has(k))) return false;
  return facts.methods.every((m) => (traces.get(memberId(id, m))?.calls ?? []).every((c) => c.argc === 1 && c.callbacks.length === 0));
}

function onlyTested(t: Trace): boolean {
  return !t.reads?.length && !t.writes?.length && !t.has?.length && !t.called && !t.constructed && !t.iterated && !t.asyncIterated && !t.pattern &&
    !t.compared?.length && !t.arith?.length && !t.typeofs?.length && !t.instanceOf?.length && !t.awaited && !t.promiseMethods?.length && !t.hints?.length;
}

/**
 * Ranks the categories a traced element can be, most likely first: what it was seen to do (be
 * called, constructed, awaited, iterated, compared, given string methods…), then static usage,
 * then naming conventions.
 */
export function inferCategories(id: string, name: string, facts: TraceFacts, usage: Usage, traces: TraceView): Category[] {
  const out: Category[] = [];
  const add = (c: Category | undefined) => { if (c !== undefined && !out.includes(c)) out.push(c); };
  const t = facts.trace;
  const has = (set: Set<string>) => facts.methods.some((m) => set.has(m)) || facts.reads.some((m) => set.has(m) && m !== 'length');
  const compared = t?.compared ?? [];
  const types = new Set(compared.filter((c) => c.value !== '__undefined__' && c.type !== 'null' && c.type !== 'undefined').map((c) => c.type));
  const numericIndex = facts.reads.some((k) => /^\d+$/.test(k));
  if (name === 'this') add('object');
  // `class X extends Base` reads Base.prototype; a value both called and constructed is a constructor function.
  if ((t?.constructed || facts.reads.includes('prototype')) && !t?.called) add('class');
  if (t?.constructed && t.called) add('function');
  if (t?.called) add('function');
  // What `await` gave is never a promise itself: await unwraps promises all the way.
  if ((t?.awaited || t?.promiseMethods?.length) && !id.startsWith('await ')) add('promise');
  for (const target of t?.instanceOf ?? []) add(target.startsWith('@') ? 'object' : BUILTIN_INSTANCE[target]);
  for (const tp of t?.typeofs ?? []) add(tp === 'string' || tp === 'number' || tp === 'boolean' || tp === 'function' ? tp : tp === 'object' ? 'object' : undefined);
  if (t?.pattern) add('tuple');
  // Only tested by an `if` (`if (done) return;`, `if (isDeep) {…}`): a flag, false or true as the branch wants.
  if (t?.tests?.length && onlyTested(t)) add('boolean');
  if (has(DATE_METHODS) && !has(STRING_METHODS)) add('Date');
  if (looksLikeRegExp(id, facts, traces)) add('RegExp');
  if (has(ELEMENT_MEMBERS)) add('element');
  if (has(STRING_METHODS)) add('string');
  if (has(ARRAY_METHODS) || t?.iterated || numericIndex) add(numericIndex && !has(ARRAY_METHODS) && !t?.iterated ? 'tuple' : 'array');
  if (has(NUMBER_METHODS)) add('number');
  if (facts.methods.includes('get') && facts.methods.includes('set') && !facts.reads.some((k) => k !== 'get' && k !== 'set' && k !== 'has' && k !== 'delete' && k !== 'size')) add('Map');
  if (facts.methods.includes('add') && facts.methods.includes('has')) add('Set');
  if (has(SHARED_SEQUENCE_METHODS)) {
    const stringArg = facts.methods.some((m) => SHARED_SEQUENCE_METHODS.has(m) && facts.methodArgs.get(m)?.some((v) => typeof v === 'string'));
    // `s.slice(1).replace(…)`: what is done with the result says what the value is.
    const results = facts.methods.filter((m) => SHARED_SEQUENCE_METHODS.has(m)).map((m) => traces.get(`${memberId(id, m)}()`)?.reads ?? []);
    const resultString = results.some((r) => r.some((k) => STRING_METHODS.has(k)));
    const resultArray = results.some((r) => r.some((k) => ARRAY_METHODS.has(k)));
    const named = byName(name);
    add(stringArg || resultString || (!resultArray && (facts.reads.includes('length') || named.includes('string'))) ? 'string' : 'array');
  }
  for (const tp of types) add(tp === 'string' || tp === 'number' || tp === 'boolean' ? tp : undefined);
  for (const a of t?.arith ?? []) add(a.op === '+' && a.type === 'string' ? 'string' : 'number');
  if (facts.reads.length > 0 || (t?.has?.length ?? 0) > 0 || (t?.writes?.length ?? 0) > 0) {
    // Only `length` read: a string is the simplest thing that has one.
    if (facts.reads.length === 1 && facts.reads[0] === 'length' && !t?.has?.length) add(byName(name).includes('array') ? 'array' : 'string');
    if (facts.reads.every((k) => k === 'message' || k === 'stack' || k === 'code' || k === 'name') && facts.reads.some((k) => k === 'message' || k === 'stack')) add('Error');
    add('object');
  }
  if (t?.hints?.includes('number')) add('number');
  if (!isUsed(t)) for (const c of byName(name)) add(c);
  for (const c of rankCategories(usage, name)) if (out.length === 0 || c !== 'object' || facts.reads.length > 0) add(c);
  if (t?.hints?.length) add('string');
  add('string');
  add('object');
  add('Dummy');
  return id.startsWith('await ') ? out.filter((c) => c !== 'promise') : out;
}
